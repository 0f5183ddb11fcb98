import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey, type AccountStore, type KeyLimits, type UsageEntry } from '@signalbox/accounts';
import { createSimulator, type Simulator } from '@signalbox/simulator';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createDefaultConfig } from '../../examples/server/src/default-config';
import { createTestDatabase, type TestDatabase } from '../helpers/start-postgres';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { findFreePort, waitUntil } from '../helpers/throwaway-process';
import { runUntilExit, startInstanceProcess, type InstanceProcess } from './start-instance-process';

/**
 * The bounds the instances run with, short so the crash test does not wait minutes (defaults:
 * docs/deploy.md). Each instance beats on a database connection of its own, so the burst's queue
 * for the pool cannot delay its heartbeat; the owner timeout only has to cover a process the loaded
 * machine leaves without CPU for a while.
 */
const HOLD_SWEEP_INTERVAL_MS = 500;
const HOLD_OWNER_TIMEOUT_MS = 4_000;
const LIMITER_LEASE_MS = 1_500;
/**
 * A lease with no hold for this long is given back at the next sweep: shorter than the default
 * 10 s, so waiting for the give-back takes seconds, and long enough that a lease taken by one
 * request is still there when the test looks at it right after the answer on a loaded machine.
 */
const LEASE_IDLE_MS = 3_000;
const ADMIN_TOKEN = `sb-test-admin-${randomBytes(16).toString('hex')}`;

/** Requests at once against the account whose balance covers about 50 of them. */
const CONCURRENT_REQUESTS = 2_000;
/**
 * The burst test's own time limit: it takes seconds on a quiet machine, and over a minute under a
 * load average of 22 on 2 cores (every request's own work then waits for a share of a core).
 */
const BURST_TEST_TIMEOUT_MS = 180_000;
/**
 * A thousand requests at once on each instance queue for its 10 database connections, and every
 * hold on the one account waits for that account's row lock, so the burst is served one hold at a
 * time across both instances: the last request waits for a connection about as long as the whole
 * burst takes. That wait is on the real clock and grows with the machine's load (under a load
 * average of 13, 10 s was not enough: 248 requests got 503 `STORE_UNAVAILABLE`, the server
 * protecting itself, which is not what these tests are about). As long as the test's own limit, a
 * slow machine makes the burst slow, never answered otherwise.
 */
const DATABASE_CONNECT_TIMEOUT_MS = BURST_TEST_TIMEOUT_MS;

type Answer = { status: number; code?: string; retryAfter: string | null; id?: string };

/**
 * Two example-server processes on different ports sharing one PostgreSQL (keys, balances, the
 * ledger, conversations) and one Redis (limits), in front of one simulator that counts what reaches
 * it. Load is spread over both instances; money must stay exact and limits must hold across them.
 */
describe('two gateway instances sharing PostgreSQL and Redis', () => {
  let postgres: TestDatabase;
  let redis: TestRedis;
  let simulator: Simulator;
  let store: AccountStore;
  let folder: string;
  let instances: InstanceProcess[] = [];
  /** The test's own view of Redis: the limiter's leases and clock. */
  let limits: Redis;
  /** The test's own connection to the database: the leases as the instances left them. */
  let database: pg.Pool;
  const serverSecret = randomBytes(32).toString('hex');

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([createTestDatabase(), startRedis()]);
    simulator = createSimulator();
    const { url: simulatorURL } = await simulator.listen(0, '127.0.0.1');
    folder = mkdtempSync(join(tmpdir(), 'signalbox-scale-out-'));
    const configPath = join(folder, 'config.json');
    writeFileSync(configPath, JSON.stringify(createDefaultConfig(simulatorURL)));
    // The test's own view of the database: seeds accounts and keys, reads balances and the ledger.
    store = await createPostgresAccountStore({ connectionString: postgres.url, serverSecret, holdSweepIntervalMs: 0 });
    const environment = {
      SIGNALBOX_DATABASE_URL: postgres.url,
      SIGNALBOX_REDIS_URL: redis.url,
      SIGNALBOX_SERVER_SECRET: serverSecret,
      SIGNALBOX_CONFIG: configPath,
      SIGNALBOX_DATA_DIR: join(folder, 'unused-data'),
      SIGNALBOX_HOLD_SWEEP_INTERVAL_MS: String(HOLD_SWEEP_INTERVAL_MS),
      SIGNALBOX_HOLD_OWNER_TIMEOUT_MS: String(HOLD_OWNER_TIMEOUT_MS),
      SIGNALBOX_LIMITER_LEASE_MS: String(LIMITER_LEASE_MS),
      SIGNALBOX_BALANCE_LEASE_IDLE_MS: String(LEASE_IDLE_MS),
      SIGNALBOX_DATABASE_CONNECT_TIMEOUT_MS: String(DATABASE_CONNECT_TIMEOUT_MS),
      SIGNALBOX_ADMIN_TOKEN: ADMIN_TOKEN,
    };
    // A key exists before they start, so neither creates a demo key; both migrate the schema at once.
    await createFundedKey('seed', 1_000_000);
    instances = await Promise.all([startInstanceProcess(environment), startInstanceProcess(environment)]);
    limits = new Redis(redis.url);
    database = new pg.Pool({ connectionString: postgres.url, max: 2 });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map(instance => instance.stop()));
    limits?.disconnect();
    await database?.end();
    await store?.close();
    await simulator?.close();
    await Promise.all([postgres?.stop(), redis?.stop()]);
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function createFundedKey(name: string, balanceMicros: number, limits?: KeyLimits) {
    const account = await store.createAccount({ name, balanceMicros });
    const key = generateApiKey();
    await store.createKey({ accountId: account.id, name, secret: key, ...(limits && { limits }) });
    return { key, accountId: account.id };
  }

  async function post(instance: InstanceProcess, key: string, body: Record<string, unknown>): Promise<Answer> {
    const response = await fetch(`${instance.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-via-responses', max_output_tokens: 16, ...body }),
    });
    const json = (await response.json()) as { code?: string; id?: string };
    return { status: response.status, retryAfter: response.headers.get('retry-after'), ...(json.code && { code: json.code }), ...(response.ok && json.id && { id: json.id }) };
  }

  /** Every ledger row of an account, once there are `count` (the ledger is written in batches). */
  async function ledgerRows(accountId: string, count: number): Promise<UsageEntry[]> {
    let rows: UsageEntry[] = [];
    await waitUntil(
      async () => {
        rows = [];
        let cursor: string | undefined;
        do {
          const page = await store.listUsage({ accountId }, { limit: 1_000, ...(cursor && { cursor }) });
          rows.push(...page.entries);
          cursor = page.nextCursor;
        } while (cursor);
        return rows.length >= count;
      },
      { what: () => `${count} ledger rows (have ${rows.length})`, exited: () => false, timeoutMs: 15_000 },
    );
    return rows;
  }

  /** The balance leases of an account, by the process (PID) of the instance holding each. */
  async function leasesOf(accountId: string): Promise<Array<{ pid: number; amountMicros: number }>> {
    const { rows } = await database.query<{ pid: number; amount_micros: string }>(
      'SELECT hold_owners.pid, balance_leases.amount_micros FROM balance_leases LEFT JOIN hold_owners ON hold_owners.id = balance_leases.owner_id WHERE account_id = $1',
      [accountId],
    );
    return rows.map(row => ({ pid: row.pid, amountMicros: Number(row.amount_micros) }));
  }

  /** Once every lease of the account is given back (idle), nothing of it is held any more. */
  async function waitForNothingHeld(accountId: string): Promise<void> {
    await waitUntil(async () => (await store.getAccount(accountId))!.reservedMicros === 0 && (await leasesOf(accountId)).length === 0, {
      what: () => 'every lease given back',
      exited: () => false,
      timeoutMs: LEASE_IDLE_MS + HOLD_SWEEP_INTERVAL_MS + 5_000,
    });
  }

  const count = (answers: readonly Answer[], status: number, code?: string) =>
    answers.filter(answer => answer.status === status && (code === undefined || answer.code === code)).length;

  it(`${CONCURRENT_REQUESTS} concurrent requests over both instances on a balance for about 50: never negative, the ledger sums to the balance drop, every refusal a 403 INSUFFICIENT_BALANCE row`, async () => {
    const calibration = await createFundedKey('calibration', 1_000_000_000);
    expect((await post(instances[0]!, calibration.key, { input: 'price me' })).status).toBe(200);
    const [priced] = await ledgerRows(calibration.accountId, 1);
    const costMicros = priced!.costMicros;
    expect(costMicros).toBeGreaterThan(0);

    const opening = 50 * costMicros;
    const money = await createFundedKey('money', opening, { concurrency: CONCURRENT_REQUESTS, queueSize: 0 });
    // The instances holding a lease of this balance, as seen while the burst runs (an idle lease is given back before it ends).
    const leasing = new Set<number>();
    let bursting = true;
    const watching = (async () => {
      while (bursting) for (const lease of await leasesOf(money.accountId)) leasing.add(lease.pid);
    })();
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT_REQUESTS }, (_, index) => post(instances[index % 2]!, money.key, { input: 'price me' })),
    );
    bursting = false;
    await watching;
    // Holds were served from leases. Whether the second instance gets a slice too depends on how much
    // of this small balance the first has taken by then (below the hold's size it holds row by row).
    expect(leasing.size).toBeGreaterThan(0);
    expect([...leasing].every(pid => instances.some(instance => instance.pid === pid))).toBe(true);
    const served = count(answers, 200);
    const refused = count(answers, 403, 'INSUFFICIENT_BALANCE');
    expect(served + refused).toBe(CONCURRENT_REQUESTS);
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(50);

    const rows = await ledgerRows(money.accountId, CONCURRENT_REQUESTS);
    expect(rows).toHaveLength(CONCURRENT_REQUESTS);
    await waitForNothingHeld(money.accountId);
    const account = await store.getAccount(money.accountId);
    expect(account!.balanceMicros).toBeGreaterThanOrEqual(0);
    expect(account!.reservedMicros).toBe(0);
    expect(rows.reduce((sum, row) => sum + row.costMicros, 0)).toBe(opening - account!.balanceMicros);
    expect(rows.filter(row => row.status === 200)).toHaveLength(served);
    const refusedRows = rows.filter(row => row.status !== 200);
    expect(refusedRows).toHaveLength(refused);
    expect(refusedRows.every(row => row.status === 403 && row.errorCode === 'INSUFFICIENT_BALANCE' && row.costMicros === 0)).toBe(true);
  }, BURST_TEST_TIMEOUT_MS);

  it('an admin top-up made through one instance is seen by both at once, leases or not', async () => {
    const empty = await createFundedKey('top-up', 0);
    expect(await Promise.all(instances.map(instance => post(instance, empty.key, { input: 'price me' })))).toMatchObject([
      { status: 403, code: 'INSUFFICIENT_BALANCE' },
      { status: 403, code: 'INSUFFICIENT_BALANCE' },
    ]);
    const topUp = await fetch(`${instances[0]!.url}/admin/accounts/${empty.accountId}/balance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ delta: 10 }),
    });
    expect(topUp.status).toBe(200);
    const answers = await Promise.all([...instances, ...instances].map(instance => post(instance, empty.key, { input: 'price me' })));
    expect(answers.map(answer => answer.status)).toEqual([200, 200, 200, 200]);
    const rows = await ledgerRows(empty.accountId, 6);
    await waitForNothingHeld(empty.accountId);
    expect(rows.reduce((sum, row) => sum + row.costMicros, 0)).toBe(10_000_000 - (await store.getAccount(empty.accountId))!.balanceMicros);
  }, 60_000);

  it('a key disabled through one instance is refused by both, even while both serve its account from leases', async () => {
    const doomedKey = await createFundedKey('disabled', 1_000_000_000);
    expect((await Promise.all(instances.map(instance => post(instance, doomedKey.key, { input: 'price me' })))).map(answer => answer.status)).toEqual([200, 200]);
    expect(new Set((await leasesOf(doomedKey.accountId)).map(lease => lease.pid))).toEqual(new Set(instances.map(instance => instance.pid)));
    const keyId = (await store.findKeyBySecret(doomedKey.key))!.id;
    const disabled = await fetch(`${instances[0]!.url}/admin/keys/${keyId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'disabled' }),
    });
    expect(disabled.status).toBe(200);
    // Refused at once where it was disabled; on the other instance once the key change is announced.
    expect(await post(instances[0]!, doomedKey.key, { input: 'price me' })).toMatchObject({ status: 401, code: 'API_KEY_DISABLED' });
    let other: Answer | undefined;
    await waitUntil(async () => (other = await post(instances[1]!, doomedKey.key, { input: 'price me' })).status !== 200, {
      what: () => 'the other instance refusing the key',
      exited: () => false,
    });
    expect(other).toMatchObject({ status: 401, code: 'API_KEY_DISABLED' });
  }, 60_000);

  it('a key with concurrency 4 and a queue of 8 never has more than 4 requests at the upstream, and its queue is one for both instances', async () => {
    const gate = await createFundedKey('gate', 1_000_000_000, { concurrency: 4, queueSize: 8, queueTimeoutMs: 20_000 });
    await waitUntil(() => simulator.stats().active === 0, { what: () => 'an idle simulator', exited: () => false });
    simulator.resetPeakActive();
    // Each answer takes about a second, so all 16 arrive while the first 4 still run.
    const slow = { input: '[[sim:slow=100]] [[sim:tokens=10]] take your time' };
    const answers = await Promise.all(Array.from({ length: 16 }, (_, index) => post(instances[index % 2]!, gate.key, slow)));
    expect(simulator.peakActive()).toBe(4);
    expect(count(answers, 200)).toBe(12);
    expect(count(answers, 429, 'QUEUE_FULL')).toBe(4);
  }, 30_000);

  it('a key allowed 5 requests a minute gets exactly 5 over both instances, then 429 RATE_LIMITED with Retry-After from the shared window', async () => {
    const rate = await createFundedKey('rate', 1_000_000_000, { requests: 5, windowSeconds: 60 });
    const answers: Answer[] = [];
    for (let index = 0; index < 8; index += 1) answers.push(await post(instances[index % 2]!, rate.key, { input: 'count me' }));
    expect(answers.map(answer => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(answers.slice(5).every(answer => answer.code === 'RATE_LIMITED' && Number(answer.retryAfter) > 0 && Number(answer.retryAfter) <= 60)).toBe(true);
  });

  it('a conversation started on one instance continues by previous_response_id on the other', async () => {
    const conversation = await createFundedKey('conversation', 1_000_000_000);
    const first = await post(instances[0]!, conversation.key, { input: 'My name is Ada.', store: true });
    expect(first.status).toBe(200);
    const second = await post(instances[1]!, conversation.key, { input: 'What is my name?', previous_response_id: first.id });
    expect(second.status).toBe(200);
    const unknown = await post(instances[1]!, conversation.key, { input: 'And now?', previous_response_id: `resp_${randomBytes(12).toString('hex')}` });
    expect([unknown.status, unknown.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });

  it('an instance whose database or Redis is unreachable, or that lacks the shared secret, exits 1 with one line naming the variable, never the URL', async () => {
    const password = randomBytes(8).toString('hex');
    const closedPort = await findFreePort();
    const base = { SIGNALBOX_SERVER_SECRET: serverSecret, SIGNALBOX_DATA_DIR: join(folder, 'unused-data') };
    const noDatabase = runUntilExit({ ...base, SIGNALBOX_DATABASE_URL: `postgres://signalbox:${password}@127.0.0.1:${closedPort}/postgres`, SIGNALBOX_REDIS_URL: redis.url });
    expect(noDatabase.status).toBe(1);
    expect(noDatabase.stderr).toMatch(/^SIGNALBOX_DATABASE_URL: cannot open the PostgreSQL database \([^\n]*ECONNREFUSED[^\n]*\); check that it is running[^\n]*\n$/);
    const noRedis = runUntilExit({ ...base, SIGNALBOX_DATABASE_URL: postgres.url, SIGNALBOX_REDIS_URL: `redis://:${password}@127.0.0.1:${closedPort}` });
    expect(noRedis.status).toBe(1);
    expect(noRedis.stderr).toMatch(/^SIGNALBOX_REDIS_URL: cannot reach Redis \([^\n]*ECONNREFUSED[^\n]*\); check that it is running[^\n]*\n$/);
    const noSecret = runUntilExit({ SIGNALBOX_DATA_DIR: base.SIGNALBOX_DATA_DIR, SIGNALBOX_DATABASE_URL: postgres.url });
    expect(noSecret.status).toBe(1);
    expect(noSecret.stderr).toMatch(/^SIGNALBOX_SERVER_SECRET: required with SIGNALBOX_DATABASE_URL, at least 32 characters \(it is not set\)[^\n]*\n$/);
    expect(noDatabase.stderr + noRedis.stderr + noDatabase.stdout + noRedis.stdout).not.toContain(password);
  }, 30_000);

  it('kill -9 of one instance under load: the other keeps serving, the dead one\'s slots and holds come back within their bounds, no committed ledger row is lost', async () => {
    const [doomed, survivor] = instances as [InstanceProcess, InstanceProcess];
    const crash = await createFundedKey('crash', 1_000_000_000, { concurrency: 2, queueSize: 10, queueTimeoutMs: 20_000 });
    const load = await createFundedKey('load', 1_000_000_000);
    await waitUntil(() => simulator.stats().active === 0, { what: () => 'an idle simulator', exited: () => false });
    // Two answers that would take 30 s hold both of the key's slots, and two holds, on the instance about to die.
    const stuck = [0, 1].map(() => post(doomed, crash.key, { input: '[[sim:slow=1000]] [[sim:tokens=30]] never finished' }).catch(() => undefined));
    await waitUntil(() => simulator.stats().active === 2, { what: () => 'two requests at the upstream', exited: () => false });
    expect((await store.getAccount(crash.accountId))!.reservedMicros).toBeGreaterThan(0);
    // Its two holds were served from a lease of this account's balance, which only expiry can now end.
    const [doomedLease] = await leasesOf(crash.accountId);
    expect(doomedLease).toMatchObject({ pid: doomed.pid });
    expect(doomedLease!.amountMicros).toBeGreaterThan(0);

    let loading = true;
    const loadAnswers: Answer[] = [];
    const background = (async () => {
      while (loading) loadAnswers.push(await post(survivor, load.key, { input: 'keep going' }));
    })();
    await waitUntil(() => loadAnswers.length >= 5, { what: () => 'load on the survivor', exited: () => false });
    const committedBefore = await store.listUsage({}, { limit: 10_000 });

    await doomed.kill();
    const killedAt = Date.now();
    // The dead instance's leases as the shared state has them, on the limiter's clock (Redis's).
    const redisNow = async () => {
      const [seconds, microseconds] = await limits.time();
      return Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
    };
    const killedAtOnRedis = await redisNow();
    const crashKeyId = (await store.findKeyBySecret(crash.key))!.id;
    const leases = await limits.zrange(`signalbox:limits:{${crashKeyId}}:gate:holders`, '0', '-1', 'WITHSCORES');
    const leaseEnds = leases.filter((_, index) => index % 2 === 1).map(Number);
    expect(leaseEnds).toHaveLength(2);
    // The survivor's request on the same key waits in the shared queue until the dead leases expire.
    const afterCrash = await post(survivor, crash.key, { input: 'my turn' });
    const slotsBackMs = Date.now() - killedAt;
    expect(afterCrash.status).toBe(200);
    // The request needs one slot: it got it no sooner than the first dead lease expired (each lease
    // renewed less than a lease before the kill), and both came back within a lease of the kill.
    expect(await redisNow()).toBeGreaterThanOrEqual(Math.min(...leaseEnds));
    expect(Math.max(...leaseEnds) - killedAtOnRedis).toBeLessThanOrEqual(LIMITER_LEASE_MS);
    expect(slotsBackMs).toBeLessThan(LIMITER_LEASE_MS + 2_000);
    // The dead instance's lease and holds are gone within the bound; what stays held is the survivor's own lease.
    const survivorLeased = async () => (await leasesOf(crash.accountId)).reduce((sum, lease) => sum + (lease.pid === survivor.pid ? lease.amountMicros : Number.NaN), 0);
    await waitUntil(async () => (await store.getAccount(crash.accountId))!.reservedMicros === (await survivorLeased()), {
      what: () => 'the dead instance\'s holds released',
      exited: () => false,
      timeoutMs: HOLD_OWNER_TIMEOUT_MS + HOLD_SWEEP_INTERVAL_MS + 3_000,
    });
    const holdsBackMs = Date.now() - killedAt;
    expect(holdsBackMs).toBeLessThan(HOLD_OWNER_TIMEOUT_MS + HOLD_SWEEP_INTERVAL_MS + 3_000);
    await Promise.all(stuck);

    loading = false;
    await background;
    expect(loadAnswers.length).toBeGreaterThan(5);
    expect(loadAnswers.every(answer => answer.status === 200)).toBe(true);

    const committedAfter = await store.listUsage({}, { limit: 10_000 });
    const after = new Set(committedAfter.entries.map(row => row.requestId));
    expect(committedBefore.entries.filter(row => !after.has(row.requestId))).toEqual([]);
    // The survivor's account: every charge has its row.
    const loadRows = await ledgerRows(load.accountId, loadAnswers.length);
    const loadAccount = await store.getAccount(load.accountId);
    expect(loadRows.reduce((sum, row) => sum + row.costMicros, 0)).toBe(1_000_000_000 - loadAccount!.balanceMicros);
    // The crashed requests were never settled: their holds were released without charge.
    await waitForNothingHeld(crash.accountId);
    const crashAccount = await store.getAccount(crash.accountId);
    const crashRows = await ledgerRows(crash.accountId, 1);
    expect(crashRows.reduce((sum, row) => sum + row.costMicros, 0)).toBe(1_000_000_000 - crashAccount!.balanceMicros);
  }, 90_000);
});
