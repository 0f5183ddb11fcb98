import { GatewayError } from '@signalbox/core';
import { createMemoryLimiter } from './create-memory-limiter';

const never = new AbortController().signal;

/** The code of the `GatewayError` a call is refused with. */
async function refusalCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (rejection: unknown) => rejection);
  if (!GatewayError.isInstance(error)) throw new Error(`Expected a GatewayError, got ${String(error)}`);
  return error.code;
}

describe('createMemoryLimiter: admitAndAcquire', () => {
  it('counts the request and takes a slot in one step; a request refused a slot stays counted', async () => {
    const limiter = createMemoryLimiter({ now: () => 1_000_000 });
    const limits = { requests: 2, concurrency: 1 };
    const release = await limiter.admitAndAcquire!('key_a', limits, 0, never);
    expect(await refusalCode(limiter.admitAndAcquire!('key_a', limits, 0, never))).toBe('CONCURRENCY_LIMITED');
    release();
    // Both earlier requests were counted: the third is refused by the window, before any slot.
    expect(await refusalCode(limiter.admitAndAcquire!('key_a', limits, 0, never))).toBe('RATE_LIMITED');
    await expect(limiter.acquire('key_a', limits, never)).resolves.toEqual(expect.any(Function));
  });

  it('refuses a key whose quota is used up before counting it in its windows or taking a slot', async () => {
    const limiter = createMemoryLimiter({ now: () => 1_000_000 });
    const limits = { quotaTokens: 100, tokens: 1_000, concurrency: 1 };
    (await limiter.admitAndAcquire!('key_a', limits, 100, never))();
    expect(await refusalCode(limiter.admitAndAcquire!('key_a', limits, 1, never))).toBe('QUOTA_EXCEEDED');
    // The refused request took no slot and counted no tokens: the window still has its 900.
    await expect(limiter.acquire('key_a', limits, never)).resolves.toEqual(expect.any(Function));
    expect(await refusalCode(limiter.admit('key_a', { tokens: 1_000 }, 901))).toBe('RATE_LIMITED');
    await expect(limiter.admit('key_a', { tokens: 1_000 }, 900)).resolves.toBeUndefined();
  });
});
