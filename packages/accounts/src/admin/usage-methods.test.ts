import { gatewayErrorOfAsync } from '@signalbox/core/testing';
import type { AccountStore } from '../store/account-store';
import { createMemoryAccountStore } from '../store/create-memory-account-store';
import { sampleUsageEntry } from '../testing/sample-usage-entry';
import type { UsageCommit } from '../usage/usage-ledger';
import { ADMIN_IDENTITY, type ConsoleIdentity } from './console-identity';
import { createAdminService } from './create-admin-service';
import { USAGE_CSV_COLUMNS } from './format-usage-csv';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

/** A row's cache activity: 6 of its 10 input tokens read from the cache, 3 written (1 for 5 minutes, 2 for 1 hour). */
const CACHED = { cacheReadTokens: 6, cacheWriteTokens: 3, cacheWrite5mTokens: 1, cacheWrite1hTokens: 2, cacheSavingsMicros: 12_500 };

type Row = Partial<UsageCommit['entry']> & { requestId: string; time: number; costMicros?: number };

/** Writes rows through the ledger as the engine does: a hold for the cost, then the commit that settles it with its row. */
async function writeRows(store: AccountStore, accountId: string, rows: readonly Row[]): Promise<void> {
  const commits: UsageCommit[] = [];
  for (const { costMicros = 0, ...row } of rows) {
    const reservation = costMicros > 0 ? await store.reserve(accountId, costMicros) : undefined;
    commits.push({
      entry: sampleUsageEntry({ accountId, ...row }),
      ...(reservation && { reservation }),
      costMicros,
    });
  }
  await store.commitUsage(commits);
}

async function setUp() {
  const store = createMemoryAccountStore({ holdSweepIntervalMs: 0, now: () => T0 });
  const admin = createAdminService({ store, adminTokenDigests: [], now: () => T0 + 60 * MINUTE });
  const own = await admin.createAccount(ADMIN_IDENTITY, { name: 'Own', balance: 10 });
  const other = await admin.createAccount(ADMIN_IDENTITY, { name: 'Other', balance: 10 });
  const { secret } = await admin.createConsoleToken(ADMIN_IDENTITY, { accountId: own.id, name: 'alice' });
  const identity: ConsoleIdentity = await admin.authenticateToken(secret);
  await writeRows(store, own.id, [
    { requestId: 'req_own_1', time: T0 + 1 * MINUTE, model: 'model-a', costMicros: 1_500_000, keyId: 'key_own', ...CACHED },
    { requestId: 'req_own_2', time: T0 + 2 * MINUTE, model: 'model-b', status: 429, outcome: 'error', errorCode: 'RATE_LIMITED' },
    { requestId: 'req_own_3', time: T0 + 3 * MINUTE, model: 'model-a', costMicros: 250_000, protocol: 'anthropic-messages', stream: true },
  ]);
  await writeRows(store, other.id, [{ requestId: 'req_other_1', time: T0 + 2 * MINUTE, model: 'model-a', costMicros: 2_000_000 }]);
  return { admin, store, own, other, identity };
}

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

describe('AdminService usage', () => {
  it('lists rows newest first in the admin API style: ISO time, cost in units and micro-units', async () => {
    const { admin, own } = await setUp();
    const page = await admin.listUsage(ADMIN_IDENTITY, {});
    expect(page.data.map(row => row.requestId)).toEqual(['req_own_3', 'req_own_2', 'req_other_1', 'req_own_1']);
    expect(page.nextCursor).toBeNull();
    expect(page.data[3]).toEqual({
      time: new Date(T0 + MINUTE).toISOString(),
      requestId: 'req_own_1',
      upstreamRequestId: null,
      accountId: own.id,
      keyId: 'key_own',
      keyPrefix: null,
      model: 'model-a',
      upstream: null,
      upstreamCredential: null,
      upstreamKind: null,
      upstreamModel: null,
      protocol: 'openai-responses',
      upstreamProtocol: null,
      stream: false,
      status: 200,
      outcome: 'completed',
      errorCode: null,
      finishReason: null,
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 6,
      cacheWriteTokens: 3,
      cacheWrite5mTokens: 1,
      cacheWrite1hTokens: 2,
      reasoningTokens: 0,
      estimated: false,
      cost: 1.5,
      costMicros: 1_500_000,
      uncoveredMicros: 0,
      cacheSavings: 0.0125,
      cacheSavingsMicros: 12_500,
      latencyMs: 100,
      timeToFirstByteMs: null,
      attempts: 1,
      warnings: [],
      traceId: null,
    });
  });

  it('filters by every parameter, with query-string values as the API receives them', async () => {
    const { admin, own } = await setUp();
    const ids = async (query: Record<string, string>) => (await admin.listUsage(ADMIN_IDENTITY, query)).data.map(row => row.requestId);
    expect(await ids({ model: 'model-a', accountId: own.id })).toEqual(['req_own_3', 'req_own_1']);
    expect(await ids({ status: '429' })).toEqual(['req_own_2']);
    expect(await ids({ outcome: 'error' })).toEqual(['req_own_2']);
    expect(await ids({ protocol: 'anthropic-messages' })).toEqual(['req_own_3']);
    expect(await ids({ keyId: 'key_own' })).toEqual(['req_own_1']);
    expect(await ids({ from: new Date(T0 + 2 * MINUTE).toISOString(), to: String(T0 + 3 * MINUTE) })).toEqual(['req_own_2', 'req_other_1']);
  });

  it('pages with limit and cursor, neither skipping nor repeating a row', async () => {
    const { admin } = await setUp();
    const first = await admin.listUsage(ADMIN_IDENTITY, { limit: '3' });
    expect(first.data.map(row => row.requestId)).toEqual(['req_own_3', 'req_own_2', 'req_other_1']);
    expect(typeof first.nextCursor).toBe('string');
    const second = await admin.listUsage(ADMIN_IDENTITY, { limit: '3', cursor: first.nextCursor! });
    expect([second.data.map(row => row.requestId), second.nextCursor]).toEqual([['req_own_1'], null]);
  });

  it('shows an account identity only its own rows, whatever accountId it names', async () => {
    const { admin, identity, other } = await setUp();
    expect((await admin.listUsage(identity, {})).data.map(row => row.requestId)).toEqual(['req_own_3', 'req_own_2', 'req_own_1']);
    expect((await admin.listUsage(identity, { accountId: other.id })).data).toEqual([]);
    expect((await admin.listUsage(identity, { accountId: 'acct_missing' })).data).toEqual([]);
    expect(await collect(await admin.exportUsageCsv(identity, { accountId: other.id }))).toBe(`${USAGE_CSV_COLUMNS.join(',')}\r\n`);
    const summary = await admin.summarizeUsage(identity, { from: String(T0), bucket: 'hour' });
    expect(summary.data.map(row => [row.requests, row.costMicros])).toEqual([[3, 1_750_000]]);
  });

  it('refuses every bad parameter with 400 INVALID_REQUEST naming it, without echoing a long value', async () => {
    const { admin } = await setUp();
    const long = 'x'.repeat(5000);
    const cases: [Record<string, unknown>, string][] = [
      [{ limit: '0' }, 'limit'],
      [{ limit: '1001' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ from: 'yesterday' }, 'from'],
      [{ to: '2026-13-45T99:00:00' }, 'to'],
      [{ status: '99' }, 'status'],
      [{ outcome: 'exploded' }, 'outcome'],
      [{ model: long }, 'model'],
      [{ model: ['a', 'b'] }, 'model'],
      [{ cursor: 'not a cursor!' }, 'cursor'],
      [{ cursor: 'bm90LWpzb24' }, 'cursor'],
      [{ [long]: '1' }, long.slice(0, 10)],
    ];
    for (const [query, parameter] of cases) {
      const error = await gatewayErrorOfAsync(() => admin.listUsage(ADMIN_IDENTITY, query));
      expect([error.status, error.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(error.message).toContain(parameter);
      expect(error.message.length).toBeLessThan(700);
    }
  });

  it('summarises per bucket and group: requests, tokens, cost, errors and latency percentiles', async () => {
    const { admin } = await setUp();
    const summary = await admin.summarizeUsage(ADMIN_IDENTITY, { from: String(T0), to: String(T0 + 5 * MINUTE), bucket: 'minute', groupBy: 'model' });
    expect(summary).toMatchObject({ bucket: 'minute', groupBy: 'model', from: new Date(T0).toISOString(), to: new Date(T0 + 5 * MINUTE).toISOString() });
    expect(summary.data.map(row => [row.bucketStart, row.group, row.requests, row.errors, row.cost])).toEqual([
      [new Date(T0 + MINUTE).toISOString(), 'model-a', 1, 0, 1.5],
      [new Date(T0 + 2 * MINUTE).toISOString(), 'model-a', 1, 0, 2],
      [new Date(T0 + 2 * MINUTE).toISOString(), 'model-b', 1, 1, 0],
      [new Date(T0 + 3 * MINUTE).toISOString(), 'model-a', 1, 0, 0.25],
    ]);
    expect(summary.data[0]).toMatchObject({ inputTokens: 10, outputTokens: 5, latencyP50Ms: 100, latencyP95Ms: 100 });
    expect(summary.data[0]).toMatchObject({ cacheReadTokens: 6, cacheWriteTokens: 3, cacheSavings: 0.0125, cacheSavingsMicros: 12_500 });
    expect(summary.data[1]).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0, cacheSavingsMicros: 0 });
  });

  it('bounds a summary’s range so a minute bucket cannot ask for millions of buckets, and defaults the range to recent buckets', async () => {
    const { admin } = await setUp();
    const tooWide = await gatewayErrorOfAsync(() => admin.summarizeUsage(ADMIN_IDENTITY, { from: '2000-01-01', bucket: 'minute' }));
    expect([tooWide.status, tooWide.param]).toEqual([400, 'from']);
    expect(tooWide.message).toContain('more than 10000');
    const reversed = await gatewayErrorOfAsync(() => admin.summarizeUsage(ADMIN_IDENTITY, { from: String(T0 + MINUTE), to: String(T0) }));
    expect([reversed.status, reversed.param]).toEqual([400, 'from']);
    const badBucket = await gatewayErrorOfAsync(() => admin.summarizeUsage(ADMIN_IDENTITY, { bucket: 'week' }));
    expect([badBucket.status, badBucket.param]).toEqual([400, 'bucket']);
    // Without from/to: the last 60 minute buckets up to now (T0 + 60 min), which hold all four rows.
    const recent = await admin.summarizeUsage(ADMIN_IDENTITY, { bucket: 'minute' });
    expect([recent.from, recent.to]).toEqual([new Date(T0).toISOString(), new Date(T0 + 60 * MINUTE).toISOString()]);
    expect(recent.data.reduce((sum, row) => sum + row.requests, 0)).toBe(4);
  });

  it('exports CSV with a header row and the rows of every page', async () => {
    const { admin } = await setUp();
    const csv = await collect(await admin.exportUsageCsv(ADMIN_IDENTITY, { limit: '1' }));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(USAGE_CSV_COLUMNS.join(','));
    expect(lines.slice(1, -1).map(line => line.split(',')[1])).toEqual(['req_own_3', 'req_own_2', 'req_other_1', 'req_own_1']);
    expect(lines.at(-1)).toBe('');
  });

  it('neutralises spreadsheet formulas and quotes per RFC 4180 in CSV cells', async () => {
    const { admin, store, own } = await setUp();
    await writeRows(store, own.id, [
      { requestId: 'req_formula', time: T0 + 10 * MINUTE, model: '=HYPERLINK("http://evil","x")', errorCode: '+1', finishReason: '@SUM(A1)', warnings: ['-2', 'a,b'] },
      { requestId: 'req_control', time: T0 + 11 * MINUTE, model: '\tcmd', errorCode: '\rcmd', finishReason: 'line\nbreak' },
    ]);
    const csv = await collect(await admin.exportUsageCsv(ADMIN_IDENTITY, { from: String(T0 + 10 * MINUTE) }));
    const [, control, formula] = csv.split(/\r\n(?=[^\r\n]*req_)/);
    const column = (name: (typeof USAGE_CSV_COLUMNS)[number]) => USAGE_CSV_COLUMNS.indexOf(name);
    const formulaCells = splitCsvLine(formula!);
    expect(formulaCells[column('model')]).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(formulaCells[column('errorCode')]).toBe("'+1");
    expect(formulaCells[column('finishReason')]).toBe("'@SUM(A1)");
    expect(formulaCells[column('warnings')]).toBe(`"'-2; a,b"`);
    const controlCells = splitCsvLine(control!);
    expect(controlCells[column('model')]).toBe(`"'\tcmd"`);
    expect(controlCells[column('errorCode')]).toBe(`"'\rcmd"`);
    expect(controlCells[column('finishReason')]).toBe('"line\nbreak"');
  });

  it('lists an account’s balance events newest first, paged, and 404s another account’s for an account identity', async () => {
    const { admin, identity, own, other } = await setUp();
    await admin.adjustBalance(ADMIN_IDENTITY, own.id, { delta: 5 });
    const first = await admin.listBalanceEvents(identity, own.id, { limit: '1' });
    expect(first.data).toEqual([
      { id: expect.any(String), accountId: own.id, time: expect.any(String), kind: 'top-up', delta: 5, deltaMicros: 5_000_000, balanceAfter: expect.any(Number), balanceAfterMicros: expect.any(Number) },
    ]);
    const second = await admin.listBalanceEvents(identity, own.id, { limit: '1', cursor: first.nextCursor! });
    expect(second.data.map(event => [event.kind, event.deltaMicros])).toEqual([['opening', 10_000_000]]);
    expect(second.nextCursor).toBeNull();
    const foreign = await gatewayErrorOfAsync(() => admin.listBalanceEvents(identity, other.id));
    expect([foreign.status, foreign.message]).toEqual([404, 'No such account.']);
    expect((await admin.listBalanceEvents(ADMIN_IDENTITY, other.id)).data).toHaveLength(1);
  });
});

/** Splits one CSV record into its raw cells (quotes kept), honouring quoted commas and line breaks. */
function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const character of line.replace(/\r\n$/, '')) {
    if (character === '"') quoted = !quoted;
    if (character === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += character;
  }
  cells.push(cell);
  return cells;
}
