import { GatewayError } from '@signalbox/core';
import { createManualSchedule } from '../testing/create-manual-schedule';
import { createConcurrencyGate } from './create-concurrency-gate';
import type { Release } from './limiter';

const flush = () => new Promise(resolve => setImmediate(resolve));
const never = new AbortController().signal;

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!GatewayError.isInstance(error)) throw new Error(`Expected a GatewayError, got ${String(error)}`);
  return error;
}

/** A gate on a clock the test moves by hand: its time, and the timers that end queue waits. */
function createClockedGate() {
  const clock = { now: 0 };
  const timers = createManualSchedule();
  return { clock, timers, gate: createConcurrencyGate({ now: () => clock.now, schedule: timers.schedule }) };
}

describe('createConcurrencyGate', () => {
  it('gives free slots at once and forgets the key when they are all released', async () => {
    const { gate } = createClockedGate();
    const limits = { concurrency: 2 };
    const first = await gate.acquire('key_a', limits, never);
    const second = await gate.acquire('key_a', limits, never);
    expect(gate.snapshot('key_a')).toMatchObject({ active: 2, waiting: 0 });
    first();
    second();
    expect(gate.snapshot('key_a')).toBeUndefined();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('has no gate when the key sets no concurrency', async () => {
    const { gate } = createClockedGate();
    const releases = await Promise.all([1, 2, 3].map(() => gate.acquire('key_a', {}, never)));
    releases.forEach(release => release());
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('refuses at once with CONCURRENCY_LIMITED when there is no queue', async () => {
    const { clock, gate } = createClockedGate();
    const release = await gate.acquire('key_a', { concurrency: 1 }, never);
    clock.now = 2_500;
    const error = await refusalOf(gate.acquire('key_a', { concurrency: 1 }, never));
    expect([error.code, error.status]).toEqual(['CONCURRENCY_LIMITED', 429]);
    expect(error.message).toContain('allows 1 at once');
    expect(error.retryAfterMs).toBe(1_000);
    release();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('hands released slots to waiters in arrival order, ahead of newcomers', async () => {
    const { gate } = createClockedGate();
    const limits = { concurrency: 1, queueSize: 3 };
    const order: string[] = [];
    const releases = new Map<string, Release>();
    const wait = (name: string) =>
      gate.acquire('key_a', limits, never).then(release => {
        order.push(name);
        releases.set(name, release);
      });
    const holder = await gate.acquire('key_a', limits, never);
    const waiting = [wait('first'), wait('second'), wait('third')];
    await flush();
    expect(order).toEqual([]);
    holder();
    const newcomer = wait('newcomer');
    await flush();
    expect(order).toEqual(['first']);
    expect(gate.snapshot('key_a')).toMatchObject({ active: 1, waiting: 3 });
    for (const name of ['first', 'second', 'third']) {
      releases.get(name)!();
      await flush();
    }
    await Promise.all([...waiting, newcomer]);
    expect(order).toEqual(['first', 'second', 'third', 'newcomer']);
    releases.get('newcomer')!();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('refuses a waiter with CONCURRENCY_LIMITED when its queue time runs out', async () => {
    const { gate, timers } = createClockedGate();
    const limits = { concurrency: 1, queueSize: 2, queueTimeoutMs: 30 };
    const release = await gate.acquire('key_a', limits, never);
    const refused = refusalOf(gate.acquire('key_a', limits, never));
    timers.advance(29);
    expect(gate.snapshot('key_a')).toMatchObject({ active: 1, waiting: 1 });
    timers.advance(1);
    const error = await refused;
    expect(error.code).toBe('CONCURRENCY_LIMITED');
    expect(error.message).toContain('within 30 ms');
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(1_000);
    expect(gate.snapshot('key_a')).toMatchObject({ active: 1, waiting: 0 });
    release();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('refuses with QUEUE_FULL and a wait computed from hold times and the queue', async () => {
    const { clock, gate } = createClockedGate();
    const limits = { concurrency: 2, queueSize: 1 };
    const keeper = await gate.acquire('key_a', limits, never);
    const early = await gate.acquire('key_a', limits, never);
    clock.now = 5_000;
    early();
    const holder = await gate.acquire('key_a', limits, never);
    clock.now = 6_000;
    const waiter = gate.acquire('key_a', limits, never);
    const error = await refusalOf(gate.acquire('key_a', limits, never));
    expect([error.code, error.status]).toEqual(['QUEUE_FULL', 429]);
    expect(error.message).toContain('2 request(s) running and 1 waiting (at most 1)');
    // max(1000, 5000 average hold − 6000 held so far) + 1 waiter × 5000 / 2 slots
    expect(error.retryAfterMs).toBe(3_500);
    keeper();
    holder();
    (await waiter)();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('estimates from the oldest request’s age before any slot was released', async () => {
    const { clock, gate } = createClockedGate();
    const limits = { concurrency: 1, queueSize: 1 };
    const holder = await gate.acquire('key_a', limits, never);
    clock.now = 3_000;
    const waiter = gate.acquire('key_a', limits, never);
    // max(1000, 3000 − 3000) + 1 waiter × 3000 / 1 slot
    expect((await refusalOf(gate.acquire('key_a', limits, never))).retryAfterMs).toBe(4_000);
    holder();
    (await waiter)();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('keeps a moving average of hold times while the key stays busy', async () => {
    const { clock, gate } = createClockedGate();
    const limits = { concurrency: 2 };
    const keeper = await gate.acquire('key_a', limits, never);
    const first = await gate.acquire('key_a', limits, never);
    clock.now = 5_000;
    first();
    expect(gate.snapshot('key_a')?.averageHoldMs).toBe(5_000);
    const second = await gate.acquire('key_a', limits, never);
    clock.now = 15_000;
    second();
    expect(gate.snapshot('key_a')?.averageHoldMs).toBe(6_000);
    const third = await gate.acquire('key_a', limits, never);
    clock.now = 16_000;
    // Oldest holder has run 16 s, past the 6 s average, so the floor applies.
    expect((await refusalOf(gate.acquire('key_a', limits, never))).retryAfterMs).toBe(1_000);
    keeper();
    expect(gate.snapshot('key_a')?.averageHoldMs).toBe(8_000);
    clock.now = 17_000;
    // The oldest holder is now `third`, 2 s in: 8000 − 2000.
    const blocker = await gate.acquire('key_a', limits, never);
    expect((await refusalOf(gate.acquire('key_a', limits, never))).retryAfterMs).toBe(6_000);
    third();
    blocker();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('drops a waiter whose client leaves and passes the next slot to the one behind it', async () => {
    const { gate } = createClockedGate();
    const limits = { concurrency: 1, queueSize: 3 };
    const holder = await gate.acquire('key_a', limits, never);
    const leaving = new AbortController();
    const first = gate.acquire('key_a', limits, leaving.signal);
    const second = gate.acquire('key_a', limits, never);
    const reason = new Error('client went away');
    leaving.abort(reason);
    await expect(first).rejects.toBe(reason);
    expect(gate.snapshot('key_a')).toMatchObject({ active: 1, waiting: 1 });
    holder();
    const release = await second;
    expect(gate.snapshot('key_a')).toMatchObject({ active: 1, waiting: 0 });
    release();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const { gate } = createClockedGate();
    const reason = new Error('gone');
    await expect(gate.acquire('key_a', { concurrency: 1 }, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('forgets the key after its only waiter leaves and its holder finishes', async () => {
    const { gate } = createClockedGate();
    const limits = { concurrency: 1, queueSize: 1 };
    const holder = await gate.acquire('key_a', limits, never);
    const leaving = new AbortController();
    const waiter = gate.acquire('key_a', limits, leaving.signal);
    leaving.abort();
    await expect(waiter).rejects.toMatchObject({ name: 'AbortError' });
    holder();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('ignores a second release of the same slot', async () => {
    const { clock, gate } = createClockedGate();
    const limits = { concurrency: 1, queueSize: 2 };
    const holder = await gate.acquire('key_a', limits, never);
    let secondGranted = false;
    const first = gate.acquire('key_a', limits, never);
    const second = gate.acquire('key_a', limits, never).then(release => {
      secondGranted = true;
      return release;
    });
    clock.now = 4_000;
    holder();
    clock.now = 10_000;
    holder();
    const firstRelease = await first;
    await flush();
    expect(secondGranted).toBe(false);
    expect(gate.snapshot('key_a')).toEqual({ active: 1, waiting: 1, averageHoldMs: 4_000 });
    firstRelease();
    (await second)();
    expect(gate.trackedKeyCount()).toBe(0);
  });

  it('keeps keys apart', async () => {
    const { gate } = createClockedGate();
    const limits = { concurrency: 1 };
    const releaseA = await gate.acquire('key_a', limits, never);
    const releaseB = await gate.acquire('key_b', limits, never);
    expect((await refusalOf(gate.acquire('key_a', limits, never))).code).toBe('CONCURRENCY_LIMITED');
    expect(gate.trackedKeyCount()).toBe(2);
    releaseA();
    expect(gate.snapshot('key_a')).toBeUndefined();
    expect(gate.snapshot('key_b')).toMatchObject({ active: 1 });
    releaseB();
  });
});
