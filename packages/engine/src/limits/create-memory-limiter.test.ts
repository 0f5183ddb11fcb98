import { GatewayError } from '@switchyard/core';
import { createMemoryLimiter } from './create-memory-limiter';

const never = new AbortController().signal;

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!GatewayError.isInstance(error)) throw new Error(`Expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('createMemoryLimiter', () => {
  it('limits requests, tokens and concurrency of one key through the Limiter interface', async () => {
    const limiter = createMemoryLimiter();
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
    const limiter = createMemoryLimiter();
    const limits = { requests: 1, concurrency: 1 };
    await limiter.admit('key_a', limits, 0);
    await limiter.acquire('key_a', limits, never);
    await expect(limiter.admit('key_b', limits, 0)).resolves.toBeUndefined();
    await expect(limiter.acquire('key_b', limits, never)).resolves.toEqual(expect.any(Function));
    expect((await refusalOf(limiter.admit('key_a', limits, 0))).code).toBe('RATE_LIMITED');
  });

  it('times concurrency estimates on the clock it is given', async () => {
    let now = 0;
    const limiter = createMemoryLimiter({ now: () => now });
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
    const limiter = createMemoryLimiter({ now: () => now });
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
