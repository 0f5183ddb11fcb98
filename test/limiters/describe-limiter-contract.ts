import { GatewayError } from '@signalbox/core';
import type { Limiter, Release } from '@signalbox/engine';

/** How a limiter under test is made, and how the suite lets its in-flight work finish. */
export type LimiterContractContext = {
  /** A fresh limiter with empty state; `now` is its one clock when given, else its default clock. */
  createLimiter(options: { now?: () => number }): Limiter;
  /**
   * Resolves once every call the limiter has already started has taken effect and every waiter it
   * has already woken has resumed (a tick for the memory limiter; round trips for a remote one).
   */
  settle(): Promise<void>;
};

const never = new AbortController().signal;

/** The `GatewayError` a call is refused with; fails the test when it resolves or throws anything else. */
export async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!GatewayError.isInstance(error)) throw new Error(`Expected a GatewayError, got ${String(error)}`);
  return error;
}

/** A clock that moves only when the test says so. */
function createTestClock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => void (time += ms), set: (ms: number) => void (time = ms) };
}

/**
 * The behaviour every `Limiter` shares, whatever holds its state: refusals with their codes,
 * statuses, messages and `retryAfterMs` from the real state, fixed windows on the limiter's clock,
 * a FIFO concurrency queue whose waiters are served in arrival order ahead of newcomers, and client
 * aborts while queued. Run against the memory limiter and the Redis limiter.
 */
export function describeLimiterContract(name: string, context: () => LimiterContractContext): void {
  describe(`${name}: the Limiter contract`, () => {
    const limiterOn = (now?: () => number) => context().createLimiter(now === undefined ? {} : { now });
    const settle = () => context().settle();

    describe('through the whole interface', () => {
      it('limits requests, tokens and concurrency of one key through the Limiter interface', async () => {
        const limiter = limiterOn();
        const limits = { requests: 5, tokens: 100, concurrency: 1 };
        await limiter.admit('key_a', limits, 40);
        const release = await limiter.acquire('key_a', limits, never);
        expect((await refusalOf(limiter.acquire('key_a', limits, never))).code).toBe('CONCURRENCY_LIMITED');
        release();
        await limiter.charge('key_a', limits, 70);
        const error = await refusalOf(limiter.admit('key_a', limits, 1));
        expect(error.code).toBe('RATE_LIMITED');
        expect(error.message).toContain('110 of them are used');
        await expect(limiter.acquire('key_a', limits, never)).resolves.toEqual(expect.any(Function));
      });

      it('keeps keys independent', async () => {
        const limiter = limiterOn();
        const limits = { requests: 1, concurrency: 1 };
        await limiter.admit('key_a', limits, 0);
        await limiter.acquire('key_a', limits, never);
        await expect(limiter.admit('key_b', limits, 0)).resolves.toBeUndefined();
        await expect(limiter.acquire('key_b', limits, never)).resolves.toEqual(expect.any(Function));
        expect((await refusalOf(limiter.admit('key_a', limits, 0))).code).toBe('RATE_LIMITED');
      });

      it('times concurrency estimates on the clock it is given', async () => {
        let now = 0;
        const limiter = limiterOn(() => now);
        const limits = { concurrency: 1, queueSize: 1 };
        const release = await limiter.acquire('key_a', limits, never);
        now = 7_000;
        const waiter = limiter.acquire('key_a', limits, never);
        // No history: hold time = oldest age (7000) → max(1000, 0) + 1 × 7000 / 1.
        expect((await refusalOf(limiter.acquire('key_a', limits, never))).retryAfterMs).toBe(8_000);
        release();
        (await waiter)();
      });

      it('moves rate windows and the quota period on the clock it is given', async () => {
        let now = 0;
        const limiter = limiterOn(() => now);
        const limits = { requests: 1, windowSeconds: 2, quotaTokens: 50, quotaPeriodHours: 1 };
        await limiter.admit('key_a', limits, 20);
        now = 500;
        expect((await refusalOf(limiter.admit('key_a', limits, 0))).retryAfterMs).toBe(1_500);
        now = 2_000;
        await limiter.admit('key_a', limits, 20);
        await limiter.charge('key_a', limits, 10);
        now = 4_000;
        const quota = await refusalOf(limiter.admit('key_a', limits, 0));
        expect([quota.code, quota.status, quota.retryAfterMs]).toEqual(['QUOTA_EXCEEDED', 429, 3_600_000 - 4_000]);
        expect(quota.message).toBe("This key's quota of 50 tokens per 1 hours is used up.");
        now = 3_600_000;
        await expect(limiter.admit('key_a', limits, 20)).resolves.toBeUndefined();
      });
    });

    describe('request and token windows', () => {
      it('admits up to the request limit, then refuses with the time left in the window', async () => {
        const clock = createTestClock();
        const limiter = limiterOn(clock.now);
        const limits = { requests: 3 };
        for (let index = 0; index < 3; index++) await limiter.admit('key_a', limits, 0);
        clock.advance(15_000);
        const error = await refusalOf(limiter.admit('key_a', limits, 0));
        expect([error.code, error.status]).toEqual(['RATE_LIMITED', 429]);
        expect(error.message).toBe('Rate limit reached: this key allows 3 requests per 60 seconds. Try again in 45 s.');
        expect(error.retryAfterMs).toBe(45_000);
      });

      it('admits again exactly when a 1-second window ends, on the clock it is given', async () => {
        const clock = createTestClock();
        const limiter = limiterOn(clock.now);
        const limits = { requests: 1, windowSeconds: 1 };
        await limiter.admit('key_a', limits, 0);
        expect((await refusalOf(limiter.admit('key_a', limits, 0))).retryAfterMs).toBe(1_000);
        clock.advance(999);
        expect((await refusalOf(limiter.admit('key_a', limits, 0))).retryAfterMs).toBe(1);
        clock.advance(1);
        await expect(limiter.admit('key_a', limits, 0)).resolves.toBeUndefined();
        expect((await refusalOf(limiter.admit('key_a', limits, 0))).retryAfterMs).toBe(1_000);
      });

      it('opens the window with the first request, not on a wall-clock boundary', async () => {
        const clock = createTestClock();
        const limiter = limiterOn(clock.now);
        const limits = { requests: 2, windowSeconds: 10 };
        await limiter.admit('key_a', limits, 0);
        clock.advance(9_000);
        await limiter.admit('key_a', limits, 0);
        expect((await refusalOf(limiter.admit('key_a', limits, 0))).retryAfterMs).toBe(1_000);
        clock.advance(1_000);
        // A new window of 10 s opens with this request; both requests of the old one are forgotten.
        await limiter.admit('key_a', limits, 0);
        await limiter.admit('key_a', limits, 0);
        expect((await refusalOf(limiter.admit('key_a', limits, 0))).retryAfterMs).toBe(10_000);
      });

      it('reports the time left in the token window, and resets it when the window ends', async () => {
        const clock = createTestClock();
        const limiter = limiterOn(clock.now);
        const limits = { tokens: 100, windowSeconds: 30 };
        await limiter.admit('key_a', limits, 100);
        expect((await refusalOf(limiter.admit('key_a', limits, 1))).retryAfterMs).toBe(30_000);
        clock.advance(10_000);
        expect((await refusalOf(limiter.admit('key_a', limits, 1))).retryAfterMs).toBe(20_000);
        clock.advance(20_000);
        await expect(limiter.admit('key_a', limits, 100)).resolves.toBeUndefined();
      });

      it('refuses an estimate larger than the whole token window with a 413 and without counting it', async () => {
        const limiter = limiterOn(createTestClock().now);
        const limits = { tokens: 100, windowSeconds: 10 };
        const error = await refusalOf(limiter.admit('key_a', limits, 101));
        expect([error.code, error.status]).toEqual(['PROMPT_TOO_LARGE', 413]);
        expect(error.message).toContain('about 101 tokens');
        expect(error.message).toContain('100 tokens per 10 seconds');
        expect(error.message).toContain('never pass');
        expect(error.retryAfterMs).toBeUndefined();
        await expect(limiter.admit('key_a', limits, 100)).resolves.toBeUndefined();
      });

      it('refuses an estimate that does not fit in what is left, and admits one that does', async () => {
        const limiter = limiterOn(createTestClock().now);
        const limits = { tokens: 100 };
        await limiter.admit('key_a', limits, 80);
        const error = await refusalOf(limiter.admit('key_a', limits, 30));
        expect(error.message).toBe(
          'Token rate limit reached: this key allows 100 tokens per 60 seconds and this request needs about 30 (estimated) and only 20 are left in this window. Try again in 60 s.',
        );
        await expect(limiter.admit('key_a', limits, 20)).resolves.toBeUndefined();
      });

      it('rounds fractional estimates up to whole tokens', async () => {
        const limiter = limiterOn(createTestClock().now);
        const limits = { tokens: 10 };
        await limiter.admit('key_a', limits, 4.2);
        expect((await refusalOf(limiter.admit('key_a', limits, 5.5))).message).toContain('needs about 6 (estimated) and only 5 are left');
      });

      it('lets charges push the token window over its limit so the next request waits for the window’s end', async () => {
        const clock = createTestClock();
        const limiter = limiterOn(clock.now);
        const limits = { tokens: 100, windowSeconds: 60 };
        await limiter.admit('key_a', limits, 50);
        clock.advance(5_000);
        await limiter.charge('key_a', limits, 60);
        const error = await refusalOf(limiter.admit('key_a', limits, 0));
        expect(error.code).toBe('RATE_LIMITED');
        expect(error.message).toContain('100 tokens per 60 seconds and 110 of them are used');
        expect(error.retryAfterMs).toBe(55_000);
        clock.advance(55_000);
        await expect(limiter.admit('key_a', limits, 100)).resolves.toBeUndefined();
      });

      it('opens a token window with a charge when no request opened one', async () => {
        const clock = createTestClock();
        const limiter = limiterOn(clock.now);
        const limits = { tokens: 10, windowSeconds: 20 };
        await limiter.charge('key_a', limits, 10);
        clock.advance(5_000);
        expect((await refusalOf(limiter.admit('key_a', limits, 1))).retryAfterMs).toBe(15_000);
      });

      it('never throws from charge, whatever it is given, and counts nothing it cannot count', async () => {
        const limiter = limiterOn(createTestClock().now);
        await expect(limiter.charge('key_a', {}, 500)).resolves.toBeUndefined();
        await expect(limiter.charge('key_a', { tokens: 10 }, Number.NaN)).resolves.toBeUndefined();
        await expect(limiter.charge('key_a', { tokens: 10 }, -5)).resolves.toBeUndefined();
        await expect(limiter.charge('key_a', { tokens: 10 }, Number.POSITIVE_INFINITY)).resolves.toBeUndefined();
        await expect(limiter.admit('key_a', { tokens: 10 }, 10)).resolves.toBeUndefined();
      });

      it('does not count the request when the token window refuses it', async () => {
        const limiter = limiterOn(createTestClock().now);
        const limits = { requests: 2, tokens: 100 };
        await limiter.admit('key_a', limits, 80);
        await refusalOf(limiter.admit('key_a', limits, 50));
        // Passes only if the refused request took neither a request point nor its 50 tokens.
        await expect(limiter.admit('key_a', limits, 20)).resolves.toBeUndefined();
        const error = await refusalOf(limiter.admit('key_a', { requests: 2 }, 0));
        expect(error.message).toContain('2 requests per 60 seconds');
      });

      it('does not count a request the requests window refuses', async () => {
        const limiter = limiterOn(createTestClock().now);
        const limits = { requests: 1, tokens: 100 };
        await limiter.admit('key_a', limits, 10);
        expect((await refusalOf(limiter.admit('key_a', limits, 30))).message).toContain('1 requests per 60 seconds');
        // The refused request's 30 tokens were not counted: 90 still fit once the request window allows.
        await expect(limiter.admit('key_a', { tokens: 100 }, 90)).resolves.toBeUndefined();
      });

      it('admits only one of two concurrent requests whose tokens fit once, and counts only that one', async () => {
        const limiter = limiterOn(createTestClock().now);
        const limits = { requests: 2, tokens: 100 };
        const outcomes = await Promise.allSettled([limiter.admit('key_a', limits, 60), limiter.admit('key_a', limits, 60)]);
        expect(outcomes.map(outcome => outcome.status)).toEqual(['fulfilled', 'rejected']);
        expect(outcomes[1]).toEqual({ status: 'rejected', reason: expect.objectContaining({ code: 'RATE_LIMITED' }) });
        await expect(limiter.admit('key_a', limits, 40)).resolves.toBeUndefined();
        expect((await refusalOf(limiter.admit('key_a', { requests: 2 }, 0))).message).toContain('2 requests');
      });

      it('keeps keys, and keys with different limits, apart', async () => {
        const limiter = limiterOn(createTestClock().now);
        await limiter.admit('key_a', { requests: 1 }, 0);
        await limiter.admit('key_b', { requests: 1 }, 0);
        await limiter.admit('key_c', { requests: 2 }, 0);
        await limiter.admit('key_c', { requests: 2 }, 0);
        expect((await refusalOf(limiter.admit('key_a', { requests: 1 }, 0))).code).toBe('RATE_LIMITED');
        expect((await refusalOf(limiter.admit('key_c', { requests: 2 }, 0))).message).toContain('2 requests');
        // A key whose limit changes counts afresh under the new limit.
        await expect(limiter.admit('key_a', { requests: 5 }, 0)).resolves.toBeUndefined();
      });

      it('admits everything when the key has no request or token limit', async () => {
        const limiter = limiterOn(createTestClock().now);
        const admitted = [];
        for (let index = 0; index < 50; index++) admitted.push(await limiter.admit('key_a', { concurrency: 1 }, 1_000_000));
        expect(admitted).toEqual(Array.from({ length: 50 }, () => undefined));
      });

      it('uses its default clock when none is given', async () => {
        const limiter = limiterOn();
        await limiter.admit('key_a', { requests: 1, windowSeconds: 30 }, 0);
        const error = await refusalOf(limiter.admit('key_a', { requests: 1, windowSeconds: 30 }, 0));
        expect(error.retryAfterMs).toBeGreaterThan(29_000);
        expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
      });
    });

    describe('the concurrency gate and its queue', () => {
      it('gives free slots at once and all of them again once they are released', async () => {
        const limiter = limiterOn(createTestClock(0).now);
        const limits = { concurrency: 2 };
        const first = await limiter.acquire('key_a', limits, never);
        const second = await limiter.acquire('key_a', limits, never);
        expect((await refusalOf(limiter.acquire('key_a', limits, never))).code).toBe('CONCURRENCY_LIMITED');
        first();
        second();
        await settle();
        const again = await Promise.all([limiter.acquire('key_a', limits, never), limiter.acquire('key_a', limits, never)]);
        expect(again).toEqual([expect.any(Function), expect.any(Function)]);
      });

      it('has no gate when the key sets no concurrency', async () => {
        const limiter = limiterOn(createTestClock(0).now);
        const releases = await Promise.all([1, 2, 3].map(() => limiter.acquire('key_a', {}, never)));
        expect(releases).toEqual([expect.any(Function), expect.any(Function), expect.any(Function)]);
        releases.forEach(release => release());
      });

      it('refuses at once with CONCURRENCY_LIMITED when there is no queue', async () => {
        const clock = createTestClock(0);
        const limiter = limiterOn(clock.now);
        const release = await limiter.acquire('key_a', { concurrency: 1 }, never);
        clock.set(2_500);
        const error = await refusalOf(limiter.acquire('key_a', { concurrency: 1 }, never));
        expect([error.code, error.status]).toEqual(['CONCURRENCY_LIMITED', 429]);
        expect(error.message).toBe('Too many concurrent requests: this key allows 1 at once. Retry when one finishes.');
        expect(error.retryAfterMs).toBe(1_000);
        release();
      });

      it('hands released slots to waiters in arrival order, ahead of newcomers', async () => {
        const limiter = limiterOn(createTestClock(0).now);
        const limits = { concurrency: 1, queueSize: 3 };
        const order: string[] = [];
        const releases = new Map<string, Release>();
        const wait = (name: string) =>
          limiter.acquire('key_a', limits, never).then(release => {
            order.push(name);
            releases.set(name, release);
          });
        const holder = await limiter.acquire('key_a', limits, never);
        const waiting = [wait('first'), wait('second'), wait('third')];
        await settle();
        expect(order).toEqual([]);
        holder();
        const newcomer = wait('newcomer');
        await settle();
        expect(order).toEqual(['first']);
        for (const name of ['first', 'second', 'third']) {
          releases.get(name)!();
          await settle();
        }
        await Promise.all([...waiting, newcomer]);
        expect(order).toEqual(['first', 'second', 'third', 'newcomer']);
        releases.get('newcomer')!();
      });

      it('refuses a waiter with CONCURRENCY_LIMITED when its queue time runs out', async () => {
        const limiter = limiterOn(createTestClock(0).now);
        const limits = { concurrency: 1, queueSize: 1, queueTimeoutMs: 30 };
        const release = await limiter.acquire('key_a', limits, never);
        const error = await refusalOf(limiter.acquire('key_a', limits, never));
        expect(error.code).toBe('CONCURRENCY_LIMITED');
        expect(error.message).toBe('No concurrency slot freed within 30 ms: this key allows 1 request(s) at once. Retry later or lower your concurrency.');
        expect(error.retryAfterMs).toBeGreaterThanOrEqual(1_000);
        // The timed-out waiter left the queue: its one place is free for the next one.
        const next = limiter.acquire('key_a', limits, never);
        release();
        await expect(next).resolves.toEqual(expect.any(Function));
      });

      it('refuses with QUEUE_FULL and a wait computed from hold times and the queue', async () => {
        const clock = createTestClock(0);
        const limiter = limiterOn(clock.now);
        const limits = { concurrency: 2, queueSize: 1 };
        const keeper = await limiter.acquire('key_a', limits, never);
        const early = await limiter.acquire('key_a', limits, never);
        clock.set(5_000);
        early();
        await settle();
        const holder = await limiter.acquire('key_a', limits, never);
        clock.set(6_000);
        const waiter = limiter.acquire('key_a', limits, never);
        const error = await refusalOf(limiter.acquire('key_a', limits, never));
        expect([error.code, error.status]).toEqual(['QUEUE_FULL', 429]);
        expect(error.message).toBe('The queue for this key is full: 2 request(s) running and 1 waiting (at most 1). Retry later.');
        // max(1000, 5000 average hold − 6000 held so far) + 1 waiter × 5000 / 2 slots
        expect(error.retryAfterMs).toBe(3_500);
        keeper();
        holder();
        (await waiter)();
      });

      it('estimates from the oldest request’s age before any slot was released', async () => {
        const clock = createTestClock(0);
        const limiter = limiterOn(clock.now);
        const limits = { concurrency: 1, queueSize: 1 };
        const holder = await limiter.acquire('key_a', limits, never);
        clock.set(3_000);
        const waiter = limiter.acquire('key_a', limits, never);
        // max(1000, 3000 − 3000) + 1 waiter × 3000 / 1 slot
        expect((await refusalOf(limiter.acquire('key_a', limits, never))).retryAfterMs).toBe(4_000);
        holder();
        (await waiter)();
      });

      it('keeps a moving average of hold times while the key stays busy', async () => {
        const clock = createTestClock(0);
        const limiter = limiterOn(clock.now);
        const limits = { concurrency: 2 };
        const keeper = await limiter.acquire('key_a', limits, never);
        const first = await limiter.acquire('key_a', limits, never);
        clock.set(5_000);
        first();
        await settle();
        const second = await limiter.acquire('key_a', limits, never);
        clock.set(15_000);
        second();
        await settle();
        // Average 0.8 × 5000 + 0.2 × 10000 = 6000.
        const third = await limiter.acquire('key_a', limits, never);
        clock.set(16_000);
        // Oldest holder has run 16 s, past the 6 s average, so the floor applies.
        expect((await refusalOf(limiter.acquire('key_a', limits, never))).retryAfterMs).toBe(1_000);
        keeper();
        await settle();
        // Average 0.8 × 6000 + 0.2 × 16000 = 8000.
        clock.set(17_000);
        // The oldest holder is now `third`, 2 s in: 8000 − 2000.
        const blocker = await limiter.acquire('key_a', limits, never);
        expect((await refusalOf(limiter.acquire('key_a', limits, never))).retryAfterMs).toBe(6_000);
        third();
        blocker();
      });

      it('drops a waiter whose client leaves and passes the next slot to the one behind it', async () => {
        const limiter = limiterOn(createTestClock(0).now);
        const limits = { concurrency: 1, queueSize: 2 };
        const holder = await limiter.acquire('key_a', limits, never);
        const leaving = new AbortController();
        const first = limiter.acquire('key_a', limits, leaving.signal);
        const second = limiter.acquire('key_a', limits, never);
        await settle();
        const reason = new Error('client went away');
        leaving.abort(reason);
        await expect(first).rejects.toBe(reason);
        await settle();
        // The queue holds only `second` now: one more fits, the one after is refused.
        const third = limiter.acquire('key_a', limits, never);
        expect((await refusalOf(limiter.acquire('key_a', limits, never))).code).toBe('QUEUE_FULL');
        holder();
        const release = await second;
        release();
        (await third)();
      });

      it('rejects at once when the signal has already aborted', async () => {
        const limiter = limiterOn(createTestClock(0).now);
        const reason = new Error('gone');
        await expect(limiter.acquire('key_a', { concurrency: 1 }, AbortSignal.abort(reason))).rejects.toBe(reason);
        // Nothing was taken: the key's one slot is free.
        await expect(limiter.acquire('key_a', { concurrency: 1 }, never)).resolves.toEqual(expect.any(Function));
      });

      it('ignores a second release of the same slot', async () => {
        const clock = createTestClock(0);
        const limiter = limiterOn(clock.now);
        const limits = { concurrency: 1, queueSize: 2 };
        const holder = await limiter.acquire('key_a', limits, never);
        let secondGranted = false;
        const first = limiter.acquire('key_a', limits, never);
        const second = limiter.acquire('key_a', limits, never).then(release => {
          secondGranted = true;
          return release;
        });
        await settle();
        clock.set(4_000);
        holder();
        clock.set(10_000);
        holder();
        const firstRelease = await first;
        await settle();
        expect(secondGranted).toBe(false);
        // Only the first release counted (a 4 s hold; the second would have moved the average to 5.2 s):
        // max(1000, 4000 average − 6000 held by `first`) + 1 waiter × 4000 / 1 slot.
        const third = limiter.acquire('key_a', { concurrency: 1, queueSize: 1 }, never);
        expect((await refusalOf(third)).retryAfterMs).toBe(Math.ceil(1_000 + (1 * 4_000) / 1));
        firstRelease();
        (await second)();
      });

      it('keeps keys apart', async () => {
        const limiter = limiterOn(createTestClock(0).now);
        const limits = { concurrency: 1 };
        const releaseA = await limiter.acquire('key_a', limits, never);
        const releaseB = await limiter.acquire('key_b', limits, never);
        expect((await refusalOf(limiter.acquire('key_a', limits, never))).code).toBe('CONCURRENCY_LIMITED');
        releaseA();
        await settle();
        await expect(limiter.acquire('key_a', limits, never)).resolves.toEqual(expect.any(Function));
        expect((await refusalOf(limiter.acquire('key_b', limits, never))).code).toBe('CONCURRENCY_LIMITED');
        releaseB();
      });
    });
  });
}
