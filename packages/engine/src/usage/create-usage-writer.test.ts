import { createMemoryAccountStore, type Settled, type UsageCommit, type UsageLedger } from '@signalbox/accounts';
import { GatewayError } from '@signalbox/core';
import { createUsageWriter, type QueuedCommit } from './create-usage-writer';

const T0 = 1_767_225_600_000;

/** A scheduler the test runs by hand: no timers, no real clock. */
function createManualScheduler() {
  const waiting: (() => void)[] = [];
  return {
    schedule: (work: () => void) => void waiting.push(work),
    pending: () => waiting.length,
    runAll() {
      for (const work of waiting.splice(0)) work();
    },
  };
}

/** A backoff wait that returns at once and keeps each delay it was asked for. */
function createRecordingSleep() {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => void waits.push(ms),
  };
}

/** Lets every promise callback queued so far run (the writer's commits are promise chains). */
const settleMicrotasks = async () => {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
};

let sequence = 0;
function commit(costMicros = 0): UsageCommit {
  return {
    entry: {
      requestId: `req_writer_${++sequence}`,
      time: T0,
      protocol: 'openai-chat',
      stream: false,
      status: 200,
      outcome: 'completed',
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite5mTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
      estimated: false,
      cacheSavingsMicros: 0,
      latencyMs: 5,
      attempts: 1,
      warnings: [],
    },
    costMicros,
  };
}

/** A ledger that records each batch it is given and answers from `answer` (default: every commit charged its cost). */
function createRecordingLedger(answer?: (commits: readonly UsageCommit[], call: number) => Promise<Settled[]>) {
  const batches: string[][] = [];
  const ledger: Pick<UsageLedger, 'commitUsage'> = {
    async commitUsage(commits) {
      batches.push(commits.map(item => item.entry.requestId));
      if (answer) return answer(commits, batches.length);
      return commits.map(item => ({ chargedMicros: item.costMicros, uncoveredMicros: 0 }));
    },
  };
  return { ledger, batches };
}

/** A queued commit whose `committed` result is kept in `results` under its request id. */
function queued(item: UsageCommit, results: Map<string, Settled | undefined>): QueuedCommit {
  return { commit: item, committed: settled => void results.set(item.entry.requestId, settled) };
}

describe('createUsageWriter', () => {
  it('commits nothing until its scheduled turn, then every request queued by then in one batch', async () => {
    const scheduler = createManualScheduler();
    const { ledger, batches } = createRecordingLedger();
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({ ledger, schedule: scheduler.schedule, onError: () => undefined });
    const items = [commit(10), commit(20), commit(30)];
    for (const item of items) await writer.write(queued(item, results));
    expect(scheduler.pending()).toBe(1);
    expect(batches).toEqual([]);
    scheduler.runAll();
    await settleMicrotasks();
    expect(batches).toEqual([items.map(item => item.entry.requestId)]);
    expect([...results.values()]).toEqual([
      { chargedMicros: 10, uncoveredMicros: 0 },
      { chargedMicros: 20, uncoveredMicros: 0 },
      { chargedMicros: 30, uncoveredMicros: 0 },
    ]);
  });

  it('puts everything queued while a commit runs into the next commit (group commit)', async () => {
    const scheduler = createManualScheduler();
    let unblock: () => void = () => undefined;
    const blocked = new Promise<void>(resolve => (unblock = resolve));
    const { ledger, batches } = createRecordingLedger(async (commits, call) => {
      if (call === 1) await blocked;
      return commits.map(() => ({ chargedMicros: 0, uncoveredMicros: 0 }));
    });
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({ ledger, schedule: scheduler.schedule, onError: () => undefined });
    const first = commit();
    await writer.write(queued(first, results));
    scheduler.runAll();
    await settleMicrotasks();
    expect(batches).toHaveLength(1);
    // Three requests finish while the first commit is still running: no new schedule, one next batch.
    const later = [commit(), commit(), commit()];
    for (const item of later) await writer.write(queued(item, results));
    expect(scheduler.pending()).toBe(0);
    unblock();
    await writer.flush();
    expect(batches).toEqual([[first.entry.requestId], later.map(item => item.entry.requestId)]);
    expect(results.size).toBe(4);
  });

  it('never drops a request when the queue is full: the writer of a charge that finds it full waits for a flush first', async () => {
    const scheduler = createManualScheduler();
    const { ledger, batches } = createRecordingLedger();
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({ ledger, schedule: scheduler.schedule, maxQueued: 2, onError: () => undefined });
    const items = [commit(1), commit(2), commit(3), commit(4), commit(5)];
    // Nobody runs the scheduler: only the bound makes the writer commit.
    for (const item of items) await writer.write(queued(item, results));
    expect(batches).toEqual([
      [items[0]!.entry.requestId, items[1]!.entry.requestId],
      [items[2]!.entry.requestId, items[3]!.entry.requestId],
    ]);
    await writer.flush();
    expect(batches.flat()).toEqual(items.map(item => item.entry.requestId));
    expect(results.size).toBe(5);
  });

  it('flush commits what is queued without waiting for the scheduler, and resolves at once when nothing is', async () => {
    const scheduler = createManualScheduler();
    const { ledger, batches } = createRecordingLedger();
    const writer = createUsageWriter({ ledger, schedule: scheduler.schedule, onError: () => undefined });
    await writer.flush();
    expect(batches).toEqual([]);
    const item = commit();
    await writer.write(queued(item, new Map()));
    await writer.flush();
    expect(batches).toEqual([[item.entry.requestId]]);
    // The turn scheduled before the flush finds nothing left to commit.
    scheduler.runAll();
    await settleMicrotasks();
    expect(batches).toHaveLength(1);
  });

  it('reports a failed commit once and retries the same batch after the first backoff wait', async () => {
    const scheduler = createManualScheduler();
    const clock = createRecordingSleep();
    const failure = new Error('database is locked');
    const { ledger, batches } = createRecordingLedger(async (commits, call) => {
      if (call === 1) throw failure;
      return commits.map(item => ({ chargedMicros: item.costMicros, uncoveredMicros: 0 }));
    });
    const errors: unknown[] = [];
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({ ledger, schedule: scheduler.schedule, sleep: clock.sleep, onError: error => void errors.push(error) });
    const items = [commit(7), commit(8)];
    for (const item of items) await writer.write(queued(item, results));
    await writer.flush();
    expect(errors).toEqual([failure]);
    expect(clock.waits).toEqual([200]);
    expect(batches).toEqual([items.map(item => item.entry.requestId), items.map(item => item.entry.requestId)]);
    expect([...results.values()]).toEqual([
      { chargedMicros: 7, uncoveredMicros: 0 },
      { chargedMicros: 8, uncoveredMicros: 0 },
    ]);
  });

  it('retries a failing ledger with doubling waits, capped, and commits every charge with its row once the ledger is back', async () => {
    const scheduler = createManualScheduler();
    const clock = createRecordingSleep();
    const store = createMemoryAccountStore();
    const account = await store.createAccount({ name: 'outage', balanceMicros: 1_000 });
    const reservation = (await store.reserve(account.id, 300))!;
    // The database is away for six attempts (about 4 s of waits), then answers again.
    let calls = 0;
    const ledger: Pick<UsageLedger, 'commitUsage'> = {
      async commitUsage(commits) {
        if (++calls <= 6) throw new Error('connection terminated');
        return store.commitUsage(commits);
      },
    };
    const errors: unknown[] = [];
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({
      ledger,
      schedule: scheduler.schedule,
      sleep: clock.sleep,
      retry: { firstDelayMs: 100, maxDelayMs: 1_000 },
      onError: error => void errors.push(error),
    });
    const charged = { ...commit(120), reservation, entry: { ...commit().entry, accountId: account.id } };
    const refused = { ...commit(0), entry: { ...commit().entry, accountId: account.id, status: 403, outcome: 'error' as const } };
    await writer.write(queued(charged, results));
    await writer.write(queued(refused, results));
    await writer.flush();
    expect(calls).toBe(7);
    expect(clock.waits).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(errors.map(error => (error as Error).message)).toEqual(['connection terminated']);
    expect(results.get(charged.entry.requestId)).toEqual({ chargedMicros: 120, uncoveredMicros: 0 });
    expect(results.get(refused.entry.requestId)).toEqual({ chargedMicros: 0, uncoveredMicros: 0 });
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 880, reservedMicros: 0 });
    expect((await store.listUsage({ accountId: account.id }, { limit: 5 })).entries.map(entry => entry.requestId).sort()).toEqual(
      [charged.entry.requestId, refused.entry.requestId].sort(),
    );
  });

  it('gives a batch up once its waits would pass the total, reporting its first failure and the counts, and telling each request nothing was committed', async () => {
    const scheduler = createManualScheduler();
    const clock = createRecordingSleep();
    const { ledger, batches } = createRecordingLedger(async (_commits, call) => {
      throw new Error(`attempt ${call} failed`);
    });
    const errors: unknown[] = [];
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({
      ledger,
      schedule: scheduler.schedule,
      sleep: clock.sleep,
      retry: { firstDelayMs: 100, maxDelayMs: 400, totalDelayMs: 1_000 },
      onError: error => void errors.push(error),
    });
    const item = commit(5);
    const row = commit(0);
    await writer.write(queued(item, results));
    await writer.write(queued(row, results));
    await writer.flush();
    // 100 + 200 + 400 = 700 ms of waits; another 400 would pass 1 000.
    expect(clock.waits).toEqual([100, 200, 400]);
    expect(batches).toHaveLength(4);
    expect(errors).toHaveLength(2);
    expect((errors[0] as Error).message).toBe('attempt 1 failed');
    expect(errors[1]).toBeInstanceOf(GatewayError);
    expect(errors[1]).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message:
        'Gave up writing 2 usage rows (0 with a hold, 5 micro-units of cost) after 4 attempts and 700 ms of waits: neither the rows nor their charges were written; their holds are released by the store\'s sweep.',
      cause: expect.objectContaining({ message: 'attempt 4 failed' }),
    });
    expect(results.has(item.entry.requestId)).toBe(true);
    expect(results.get(item.entry.requestId)).toBeUndefined();
    expect(results.has(row.entry.requestId)).toBe(true);
    // The writer keeps working for the next requests, with a fresh budget.
    const next = commit();
    await writer.write(queued(next, results));
    await writer.flush();
    expect(batches).toHaveLength(8);
  });

  it('bounds a flush: once it waits, failing batches wait at most the flush allowance more in all', async () => {
    const scheduler = createManualScheduler();
    const clock = createRecordingSleep();
    const { ledger, batches } = createRecordingLedger(async () => {
      throw new Error('database is down');
    });
    const errors: unknown[] = [];
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({
      ledger,
      schedule: scheduler.schedule,
      sleep: clock.sleep,
      retry: { firstDelayMs: 100, maxDelayMs: 1_000, totalDelayMs: 60_000, flushDelayMs: 1_500 },
      onError: error => void errors.push(error),
    });
    const item = commit(9);
    await writer.write(queued(item, results));
    await writer.flush();
    // 100 + 200 + 400 + 800 = 1 500; the next 1 000 would pass the flush's allowance (not the total's).
    expect(clock.waits).toEqual([100, 200, 400, 800]);
    expect(batches).toHaveLength(5);
    expect(errors[1]).toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/^Gave up writing 1 usage rows \(0 with a hold, 9 micro-units of cost\) after 5 attempts/) });
    expect(results.get(item.entry.requestId)).toBeUndefined();
  });

  it('answers refusals at once while a failing batch retries: their rows go past the bound, then are dropped and counted; charges wait for room', async () => {
    const scheduler = createManualScheduler();
    let failing = true;
    const waiting: (() => void)[] = [];
    const { ledger, batches } = createRecordingLedger(async commits => {
      if (failing) throw new Error('database is down');
      return commits.map(item => ({ chargedMicros: item.costMicros, uncoveredMicros: 0 }));
    });
    const errors: unknown[] = [];
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({
      ledger,
      schedule: scheduler.schedule,
      maxQueued: 2,
      // Each backoff wait lasts until the test lets it end.
      sleep: () => new Promise<void>(resolve => void waiting.push(resolve)),
      onError: error => void errors.push(error),
    });
    await writer.write(queued(commit(1), results));
    scheduler.runAll();
    await settleMicrotasks();
    expect(batches).toHaveLength(1);
    expect(waiting).toHaveLength(1);
    // While the first batch waits to retry: two charges fill the queue, two refusals still go in at
    // once (twice the bound), and a third refusal is dropped at once, told nothing was committed.
    await writer.write(queued(commit(2), results));
    await writer.write(queued(commit(3), results));
    const refusals = [commit(), commit()];
    for (const item of refusals) await writer.write(queued(item, results));
    const droppedRefusal = commit();
    await writer.write(queued(droppedRefusal, results));
    expect(results.has(droppedRefusal.entry.requestId)).toBe(true);
    expect(results.get(droppedRefusal.entry.requestId)).toBeUndefined();
    let chargeQueued = false;
    const charge = writer.write(queued(commit(4), results)).then(() => (chargeQueued = true));
    await settleMicrotasks();
    expect(chargeQueued).toBe(false);
    failing = false;
    waiting.shift()!();
    await charge;
    await writer.flush();
    expect(batches.flat()).not.toContain(droppedRefusal.entry.requestId);
    expect(results.size).toBe(7);
    expect([...results.entries()].filter(([, settled]) => settled === undefined).map(([id]) => id)).toEqual([droppedRefusal.entry.requestId]);
    expect(errors.map(error => (error as Error).message)).toEqual([
      'database is down',
      'Dropped 1 usage rows of refused requests (nothing held or charged): 4 rows were already waiting for the ledger.',
    ]);
    expect(errors[1]).toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });

  it('reports a throwing committed callback without losing the other requests of its batch', async () => {
    const scheduler = createManualScheduler();
    const { ledger } = createRecordingLedger();
    const errors: unknown[] = [];
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({ ledger, schedule: scheduler.schedule, onError: error => void errors.push(error) });
    const broken = new Error('host recorder broke');
    await writer.write({
      commit: commit(),
      committed: () => {
        throw broken;
      },
    });
    const kept = commit(3);
    await writer.write(queued(kept, results));
    await writer.flush();
    expect(errors).toEqual([broken]);
    expect(results.get(kept.entry.requestId)).toEqual({ chargedMicros: 3, uncoveredMicros: 0 });
  });

  it('settles holds on a real store only when the batch commits, each with its row', async () => {
    const store = createMemoryAccountStore();
    const account = await store.createAccount({ name: 'writer', balanceMicros: 1_000 });
    const scheduler = createManualScheduler();
    const results = new Map<string, Settled | undefined>();
    const writer = createUsageWriter({ ledger: store, schedule: scheduler.schedule, onError: () => undefined });
    const reservation = (await store.reserve(account.id, 400))!;
    const item = { ...commit(250), reservation, entry: { ...commit().entry, accountId: account.id } };
    await writer.write(queued(item, results));
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 400 });
    scheduler.runAll();
    await writer.flush();
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 750, reservedMicros: 0 });
    expect(results.get(item.entry.requestId)).toEqual({ chargedMicros: 250, uncoveredMicros: 0 });
    expect((await store.listUsage({ accountId: account.id }, { limit: 5 })).entries).toEqual([
      { ...item.entry, costMicros: 250, uncoveredMicros: 0 },
    ]);
  });

  it('refuses a queue bound below one', () => {
    expect(() => createUsageWriter({ ledger: createRecordingLedger().ledger, schedule: () => undefined, maxQueued: 0, onError: () => undefined })).toThrow(
      /maxQueued/,
    );
  });
});
