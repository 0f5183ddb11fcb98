import OpenAI from 'openai';
import type { UsageCommit } from '@signalbox/accounts';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

/** A ledger row as the engine commits it, settling a hold of its cost. */
async function commitRow(server: TestGateway, accountId: string, row: Partial<UsageCommit['entry']> & { requestId: string; time: number }, costMicros: number) {
  const reservation = await server.store.reserve(accountId, costMicros);
  await server.store.commitUsage([
    {
      entry: {
        accountId,
        protocol: 'openai-responses',
        stream: false,
        status: 200,
        outcome: 'completed',
        inputTokens: 12,
        outputTokens: 7,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        reasoningTokens: 0,
        estimated: false,
        cacheSavingsMicros: 0,
        latencyMs: 80,
        attempts: 1,
        warnings: [],
        ...row,
      },
      ...(reservation && { reservation }),
      costMicros,
    },
  ]);
}

describe('the usage admin API', () => {
  let server: TestGateway;
  let own: { id: string };
  let other: { id: string };
  let consoleToken: string;
  beforeAll(async () => {
    server = await startTestGateway();
    own = (await request(server.url).post('/admin/accounts').set(admin()).send({ name: 'own', balance: 10 })).body;
    other = (await request(server.url).post('/admin/accounts').set(admin()).send({ name: 'other', balance: 10 })).body;
    consoleToken = (await request(server.url).post('/admin/console-tokens').set(admin()).send({ accountId: own.id, name: 'alice' })).body.secret;
    for (let index = 0; index < 5; index++) {
      await commitRow(server, own.id, { requestId: `req_own_${index}`, time: T0 + index * MINUTE, model: index % 2 ? 'model-b' : 'model-a' }, 100_000 * (index + 1));
    }
    await commitRow(server, own.id, { requestId: 'req_own_evil', time: T0 + 10 * MINUTE, model: '=1+2', errorCode: 'say "hi", then\r\nbye' }, 0);
    await commitRow(server, other.id, { requestId: 'req_other_0', time: T0 + 2 * MINUTE, model: 'model-a' }, 700_000);
  });
  afterAll(() => server.close(1_000));

  const admin = () => ({ authorization: `Bearer ${server.adminToken}` });
  const account = () => ({ authorization: `Bearer ${consoleToken}` });
  const range = `from=${T0}&to=${T0 + 60 * MINUTE}`;

  it('answers a page newest first with nextCursor, and the next page from the cursor', async () => {
    const first = await request(server.url).get(`/admin/usage?${range}&accountId=${own.id}&limit=4`).set(admin());
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body.data.map((row: { requestId: string }) => row.requestId)).toEqual(['req_own_evil', 'req_own_4', 'req_own_3', 'req_own_2']);
    expect(first.body.data[1]).toMatchObject({ time: new Date(T0 + 4 * MINUTE).toISOString(), model: 'model-a', protocol: 'openai-responses', status: 200, outcome: 'completed', cost: 0.5, costMicros: 500_000, inputTokens: 12, outputTokens: 7 });
    const second = await request(server.url).get(`/admin/usage?${range}&accountId=${own.id}&limit=4&cursor=${encodeURIComponent(first.body.nextCursor)}`).set(admin());
    expect(second.body.data.map((row: { requestId: string }) => row.requestId)).toEqual(['req_own_1', 'req_own_0']);
    expect(second.body.nextCursor).toBeNull();
  });

  it('forces an account console token to its own rows, whatever accountId it asks for', async () => {
    const mine = await request(server.url).get(`/admin/usage?${range}&model=model-a`).set(account());
    expect(mine.body.data.map((row: { requestId: string }) => row.requestId)).toEqual(['req_own_4', 'req_own_2', 'req_own_0']);
    const theirs = await request(server.url).get(`/admin/usage?${range}&accountId=${other.id}`).set(account());
    expect([theirs.status, theirs.body]).toEqual([200, { data: [], nextCursor: null }]);
    const csv = await request(server.url).get(`/admin/usage?${range}&format=csv`).set(account());
    expect(csv.text).not.toContain('req_other_0');
    const summary = await request(server.url).get(`/admin/usage/summary?${range}&bucket=hour`).set(account());
    expect(summary.body.data.map((row: { requests: number; costMicros: number }) => [row.requests, row.costMicros])).toEqual([[6, 1_500_000]]);
  });

  it('streams CSV as an attachment with a header row, formula cells neutralised and RFC 4180 quoting', async () => {
    const csv = await request(server.url).get(`/admin/usage?${range}&accountId=${own.id}&format=csv`).set(admin()).buffer(true);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="usage.csv"');
    const lines = csv.text.split('\r\n');
    expect(lines[0]!.startsWith('time,requestId,accountId,keyId,keyPrefix,model,protocol,status,outcome,errorCode,cost,costMicros')).toBe(true);
    expect(lines[1]).toContain(`req_own_evil,${own.id},,,'=1+2,openai-responses,200,completed,"say ""hi"", then`);
    // cost, costMicros, uncoveredMicros, cacheSavingsMicros, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens,
    // cacheWrite5mTokens, cacheWrite1hTokens, reasoningTokens, …, attempts, upstream, upstreamModel, upstreamProtocol,
    // upstreamRequestId, warnings, traceId (empty: not traced), upstreamCredential and upstreamKind (empty: no upstream called).
    expect(lines[2]).toBe('bye",0,0,0,0,12,7,0,0,0,0,0,false,false,,80,,1,,,,,,,,');
    expect(csv.text.match(/req_own_\d/g)).toEqual(['req_own_4', 'req_own_3', 'req_own_2', 'req_own_1', 'req_own_0']);
  });

  it('summarises by bucket and group', async () => {
    const summary = await request(server.url).get(`/admin/usage/summary?from=${T0}&to=${T0 + 5 * MINUTE}&bucket=minute&groupBy=model`).set(admin());
    expect(summary.status).toBe(200);
    expect(summary.body.data.map((row: { bucketStart: string; group: string; requests: number; cost: number }) => [row.bucketStart.slice(11, 16), row.group, row.requests, row.cost])).toEqual([
      ['00:00', 'model-a', 1, 0.1],
      ['00:01', 'model-b', 1, 0.2],
      ['00:02', 'model-a', 2, 1],
      ['00:03', 'model-b', 1, 0.4],
      ['00:04', 'model-a', 1, 0.5],
    ]);
  });

  it('answers every bad parameter with 400 in the admin envelope, naming it and never echoing it whole', async () => {
    const long = 'q'.repeat(10_000);
    const cases = [
      ['/admin/usage?limit=5000', 'limit'],
      ['/admin/usage?from=tomorrow', 'from'],
      ['/admin/usage?format=xlsx', 'format'],
      ['/admin/usage?status=abc', 'status'],
      ['/admin/usage?cursor=%7B%7D', 'cursor'],
      [`/admin/usage?${long}=1`, long.slice(0, 8)],
      [`/admin/usage?model=${long}`, 'model'],
      ['/admin/usage?model=a&model=b', 'model'],
      ['/admin/usage/summary?bucket=minute&from=0', 'from'],
      ['/admin/usage/summary?groupBy=colour', 'groupBy'],
      [`/admin/accounts/${own.id}/balance-events?limit=-1`, 'limit'],
    ] as const;
    for (const [path, parameter] of cases) {
      const response = await request(server.url).get(path).set(admin());
      expect([response.status, response.body.code, response.body.error.type]).toEqual([400, 'INVALID_REQUEST', 'invalid_request_error']);
      expect(response.body.error.message).toContain(parameter);
      expect(JSON.stringify(response.body)).not.toContain(long);
    }
  });

  it('lists an account’s balance events (the opening balance, then top-ups), paged', async () => {
    await request(server.url).post(`/admin/accounts/${own.id}/balance`).set(admin()).send({ delta: 2.5 }).expect(200);
    const events = await request(server.url).get(`/admin/accounts/${own.id}/balance-events?limit=1`).set(account());
    expect(events.status).toBe(200);
    expect(events.body.data).toEqual([expect.objectContaining({ accountId: own.id, kind: 'top-up', delta: 2.5, deltaMicros: 2_500_000 })]);
    const older = await request(server.url).get(`/admin/accounts/${own.id}/balance-events?limit=1&cursor=${events.body.nextCursor}`).set(account());
    expect(older.body.data).toEqual([expect.objectContaining({ kind: 'opening', delta: 10 })]);
    const foreign = await request(server.url).get(`/admin/accounts/${other.id}/balance-events`).set(account());
    expect([foreign.status, foreign.body.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });
});

describe('the usage admin API over requests the gateway served', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  it('shows a streamed and a refused request of an account, with status, outcome and cost, in JSON and CSV alike', async () => {
    const admin = { authorization: `Bearer ${server.adminToken}` };
    const account = (await request(server.url).post('/admin/accounts').set(admin).send({ name: 'live', balance: 5 })).body;
    const { secret } = (await request(server.url).post('/admin/keys').set(admin).send({ accountId: account.id, name: 'k' })).body;
    const login = { authorization: `Bearer ${(await request(server.url).post('/admin/console-tokens').set(admin).send({ accountId: account.id, name: 'alice' })).body.secret}` };
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: secret, maxRetries: 0 });

    const stream = await openai.responses.create({ model: 'signalbox-sim', input: 'count to three', stream: true });
    for await (const event of stream) void event;
    await expect(openai.responses.create({ model: 'no-such-model', input: 'hi' })).rejects.toMatchObject({ status: 404 });

    // The ledger writer commits off the response path, on a later turn of the event loop.
    let rows: Array<{ requestId: string; model: string; status: number; outcome: string; stream: boolean; costMicros: number; protocol: string; keyId: string }> = [];
    for (let turn = 0; turn < 500 && rows.length < 2; turn++) {
      rows = (await request(server.url).get('/admin/usage').set(login)).body.data;
      if (rows.length < 2) await new Promise(resolve => setImmediate(resolve));
    }
    expect(rows.map(row => [row.model, row.status, row.outcome, row.stream, row.protocol])).toEqual([
      ['no-such-model', 404, 'error', false, 'openai-responses'],
      ['signalbox-sim', 200, 'completed', true, 'openai-responses'],
    ]);
    expect(rows[0]!.costMicros).toBe(0);
    expect(rows[1]!.costMicros).toBeGreaterThan(0);
    const balance = (await request(server.url).get(`/admin/accounts/${account.id}`).set(login)).body;
    expect(balance.balanceMicros).toBe(5_000_000 - rows[1]!.costMicros);

    const filtered = await request(server.url).get('/admin/usage?model=signalbox-sim').set(login);
    expect(filtered.body.data.map((row: { requestId: string }) => row.requestId)).toEqual([rows[1]!.requestId]);
    const csv = (await request(server.url).get('/admin/usage?format=csv').set(login).buffer(true)).text.split('\r\n');
    expect(csv.slice(1, -1).map(line => line.split(',')[1])).toEqual(rows.map(row => row.requestId));
  });
});
