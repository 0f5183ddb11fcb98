import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey, type AccountStore } from '@signalbox/accounts';
import { systemClock } from '@signalbox/engine';
import { startExampleServer, type ExampleServer } from '../../examples/server/src';
import { readAllUsageRows } from '../helpers/read-all-usage-rows';
import { authHeaders } from '../helpers/read-sse';

type Interface = keyof typeof authHeaders;

const PATHS: Record<Interface, string> = { responses: '/v1/responses', chat: '/v1/chat/completions', messages: '/v1/messages' };

/** A request body on `face` for `model` saying `prompt`, streamed or not. */
function bodyFor(face: Interface, model: string, prompt: string, stream: boolean): object {
  if (face === 'responses') return { model, input: prompt, stream, max_output_tokens: 64 };
  if (face === 'chat') return { model, messages: [{ role: 'user', content: prompt }], stream, max_completion_tokens: 64 };
  return { model, max_tokens: 64, messages: [{ role: 'user', content: prompt }], stream };
}

/** Sends one request and reads its answer to the end; returns the status. */
async function send(url: string, key: string, face: Interface, body: object): Promise<number> {
  const response = await fetch(`${url}${PATHS[face]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders[face](key) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Opens a slow stream, reads its first bytes, then leaves (a client abort mid-stream). */
async function abortMidStream(url: string, key: string, face: Interface, model: string): Promise<number> {
  const controller = new AbortController();
  const response = await fetch(`${url}${PATHS[face]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders[face](key) },
    body: JSON.stringify(bodyFor(face, model, '[[sim:slow=40]] [[sim:tokens=200]] tell me a long story', true)),
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.read().catch(() => undefined);
  return response.status;
}

/** The sum of the account's balance events: its opening balance plus top-ups and adjustments. */
async function sumOfBalanceEvents(store: AccountStore, accountId: string): Promise<{ total: number; kinds: string[] }> {
  const { events, nextCursor } = await store.listBalanceEvents(accountId, { limit: 1_000 });
  expect(nextCursor).toBeUndefined();
  return { total: events.reduce((sum, event) => sum + event.deltaMicros, 0), kinds: events.map(event => event.kind) };
}

/**
 * The ledger behind the example server on its data folder (SQLite): after a concurrent mixed run
 * (answers, streams, client aborts, upstream failures, refusals, top-ups while it runs) every
 * account's balance equals its opening balance plus top-ups minus the sum of its rows' costs, to the
 * micro-unit, and the rows are still there after a restart.
 */
describe('usage ledger on the example server’s data folder', () => {
  let folder: string;
  let server: ExampleServer | undefined;
  const demoKey = generateApiKey();
  const start = () =>
    startExampleServer({
      port: 0,
      host: '127.0.0.1',
      storage: { kind: 'data-directory', path: join(folder, 'data') },
      demoKey,
      environment: {},
      // Waits between upstream attempts return at once: no real clock in the retries.
      clock: { ...systemClock, sleep: async (_ms, signal) => signal?.throwIfAborted() },
    });

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'signalbox-ledger-'));
  });
  afterEach(async () => {
    await server?.close(1_000);
    server = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps balance == opening + top-ups − sum of ledger costs after a concurrent mixed run, and the rows survive a restart', async () => {
    server = await start();
    const { store, url } = server;
    const demoAccount = (await store.findKeyBySecret(demoKey))!.accountId;
    // A second account with little money: some of its requests are refused for the balance.
    const small = await store.createAccount({ name: 'small', balanceMicros: 400 });
    const { secret: smallKey } = await store.createKey({ accountId: small.id, name: 'small' });

    const faces: Interface[] = ['responses', 'chat', 'messages'];
    const models = ['sim-via-responses', 'sim-via-messages', 'sim-via-chat'];
    const work: Promise<number>[] = [];
    faces.forEach((face, faceIndex) => {
      const model = models[faceIndex]!;
      const other = models[(faceIndex + 1) % models.length]!;
      work.push(
        send(url, demoKey, face, bodyFor(face, model, 'Name a colour', false)),
        send(url, demoKey, face, bodyFor(face, other, 'Name a fruit', false)),
        send(url, demoKey, face, bodyFor(face, model, 'Count to five', true)),
        send(url, demoKey, face, bodyFor(face, other, 'Count to three', true)),
        abortMidStream(url, demoKey, face, model),
        // Upstream failures: a status before any answer, a stream that errors and one that is cut.
        send(url, demoKey, face, bodyFor(face, model, '[[sim:status=500]] fail', false)),
        send(url, demoKey, face, bodyFor(face, other, '[[sim:stream-error]] fail midway', true)),
        send(url, demoKey, face, bodyFor(face, model, '[[sim:cut]] cut midway', true)),
        // Refusals: an unknown model, and a bad key (no account, still a row).
        send(url, demoKey, face, bodyFor(face, 'no-such-model', 'hi', false)),
        send(url, generateApiKey(), face, bodyFor(face, model, 'hi', false)),
        // The small account: the first requests may be served, the rest refused for the balance.
        send(url, smallKey, face, bodyFor(face, model, 'Name a planet', false)),
        send(url, smallKey, face, bodyFor(face, other, 'Name a river', true)),
      );
    });
    const topUps = [store.adjustBalance(demoAccount, 1_234_567), store.adjustBalance(small.id, 55)];
    const statuses = await Promise.all(work);
    await Promise.all(topUps);
    expect(statuses.filter(status => status === 200).length).toBeGreaterThan(10);
    expect(statuses).toContain(404);
    expect(statuses).toContain(401);
    await server.close(5_000);
    server = undefined;

    // Restarted on the same data folder: every row is still there and the money adds up.
    server = await start();
    const restarted = server.store;
    const demoRows = await readAllUsageRows(restarted, demoAccount, 7);
    const smallRows = await readAllUsageRows(restarted, small.id, 7);
    expect(demoRows).toHaveLength(faces.length * 9);
    expect(smallRows).toHaveLength(faces.length * 2);
    expect(new Set(demoRows.map(row => row.requestId)).size).toBe(demoRows.length);
    const outcomes = new Set(demoRows.map(row => row.outcome));
    for (const outcome of ['completed', 'client-aborted', 'error', 'failed']) expect(outcomes).toContain(outcome);
    expect(demoRows.some(row => row.stream && row.costMicros > 0)).toBe(true);
    expect(smallRows.some(row => row.errorCode === 'INSUFFICIENT_BALANCE')).toBe(true);
    // The bad key's requests are rows of no account.
    const { entries: unknownKeyRows } = await restarted.listUsage({ status: 401 }, { limit: 50 });
    expect(unknownKeyRows).toHaveLength(faces.length);
    expect(unknownKeyRows.every(row => row.accountId === undefined)).toBe(true);

    for (const [accountId, rows, topUp] of [
      [demoAccount, demoRows, 1_234_567],
      [small.id, smallRows, 55],
    ] as const) {
      const account = (await restarted.getAccount(accountId))!;
      const events = await sumOfBalanceEvents(restarted, accountId);
      expect(events.kinds).toEqual(['top-up', 'opening']);
      const costs = rows.reduce((sum, row) => sum + row.costMicros, 0);
      expect(account.reservedMicros).toBe(0);
      expect(account.balanceMicros).toBe(events.total - costs);
      const opening = accountId === small.id ? 400 : 1_000 * 1_000_000;
      expect(account.balanceMicros).toBe(opening + topUp - costs);
    }
  });
});
