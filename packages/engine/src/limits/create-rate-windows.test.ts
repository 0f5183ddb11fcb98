import { GatewayError } from '@switchyard/core';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { createRateWindows } from './create-rate-windows';

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!GatewayError.isInstance(error)) throw new Error(`Expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('createRateWindows', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('admits up to the request limit, then refuses with the window’s real wait', async () => {
    const windows = createRateWindows();
    const limits = { requests: 3 };
    for (let index = 0; index < 3; index++) await windows.admit('key_a', limits, 0);
    const error = await refusalOf(windows.admit('key_a', limits, 0));
    expect([error.code, error.status]).toEqual(['RATE_LIMITED', 429]);
    expect(error.message).toContain('3 requests per 60 seconds');
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('admits again once a 1-second window has passed (real time)', async () => {
    const windows = createRateWindows();
    const limits = { requests: 1, windowSeconds: 1 };
    await windows.admit('key_a', limits, 0);
    const error = await refusalOf(windows.admit('key_a', limits, 0));
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(1_000);
    await new Promise(resolve => setTimeout(resolve, 1_100));
    await expect(windows.admit('key_a', limits, 0)).resolves.toBeUndefined();
  });

  it('reports the time left in the token window, and resets it when the window ends', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const windows = createRateWindows();
    const limits = { tokens: 100, windowSeconds: 30 };
    await windows.admit('key_a', limits, 100);
    expect((await refusalOf(windows.admit('key_a', limits, 1))).retryAfterMs).toBe(30_000);
    jest.advanceTimersByTime(10_000);
    expect((await refusalOf(windows.admit('key_a', limits, 1))).retryAfterMs).toBe(20_000);
    jest.advanceTimersByTime(20_001);
    await expect(windows.admit('key_a', limits, 100)).resolves.toBeUndefined();
  });

  it('refuses an estimate larger than the whole token window without counting it', async () => {
    const windows = createRateWindows();
    const limits = { tokens: 100, windowSeconds: 10 };
    const error = await refusalOf(windows.admit('key_a', limits, 101));
    expect([error.code, error.status]).toEqual(['PROMPT_TOO_LARGE', 413]);
    expect(error.message).toContain('about 101 tokens');
    expect(error.message).toContain('100 tokens per 10 seconds');
    expect(error.message).toContain('never pass');
    expect(error.retryAfterMs).toBeUndefined();
    await expect(windows.admit('key_a', limits, 100)).resolves.toBeUndefined();
  });

  it('refuses an estimate that does not fit in what is left, and admits one that does', async () => {
    const windows = createRateWindows();
    const limits = { tokens: 100 };
    await windows.admit('key_a', limits, 80);
    const error = await refusalOf(windows.admit('key_a', limits, 30));
    expect(error.message).toContain('needs about 30');
    expect(error.message).toContain('only 20 are left');
    await expect(windows.admit('key_a', limits, 20)).resolves.toBeUndefined();
  });

  it('lets charges push the token window over its limit so the next request waits', async () => {
    const windows = createRateWindows();
    const limits = { tokens: 100, windowSeconds: 60 };
    await windows.admit('key_a', limits, 50);
    await windows.charge('key_a', limits, 60);
    const error = await refusalOf(windows.admit('key_a', limits, 0));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toContain('100 tokens per 60 seconds and 110 of them are used');
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('never throws from charge, whatever it is given', async () => {
    const windows = createRateWindows();
    await expect(windows.charge('key_a', {}, 500)).resolves.toBeUndefined();
    await expect(windows.charge('key_a', { tokens: 10 }, Number.NaN)).resolves.toBeUndefined();
    await expect(windows.charge('key_a', { tokens: 10 }, -5)).resolves.toBeUndefined();
    await expect(windows.admit('key_a', { tokens: 10 }, 10)).resolves.toBeUndefined();
  });

  it('does not count the request when the token window refuses it', async () => {
    const windows = createRateWindows();
    const limits = { requests: 2, tokens: 100 };
    await windows.admit('key_a', limits, 80);
    await refusalOf(windows.admit('key_a', limits, 50));
    // Passes only if the refused request took neither a request point nor its 50 tokens.
    await expect(windows.admit('key_a', limits, 20)).resolves.toBeUndefined();
    const error = await refusalOf(windows.admit('key_a', { requests: 2 }, 0));
    expect(error.message).toContain('2 requests per 60 seconds');
  });

  it('gives the request point and tokens back when a concurrent request took the room first', async () => {
    const reward = jest.spyOn(RateLimiterMemory.prototype, 'reward');
    const windows = createRateWindows();
    const limits = { requests: 2, tokens: 100 };
    const outcomes = await Promise.allSettled([windows.admit('key_a', limits, 60), windows.admit('key_a', limits, 60)]);
    expect(outcomes.map(outcome => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(reward.mock.calls).toEqual([
      ['key_a', 60],
      ['key_a', 1],
    ]);
    await expect(windows.admit('key_a', limits, 40)).resolves.toBeUndefined();
    expect((await refusalOf(windows.admit('key_a', { requests: 2 }, 0))).message).toContain('2 requests');
  });

  it('keeps keys, and keys with different limits, apart', async () => {
    const windows = createRateWindows();
    await windows.admit('key_a', { requests: 1 }, 0);
    await windows.admit('key_b', { requests: 1 }, 0);
    await windows.admit('key_c', { requests: 2 }, 0);
    await windows.admit('key_c', { requests: 2 }, 0);
    expect((await refusalOf(windows.admit('key_a', { requests: 1 }, 0))).code).toBe('RATE_LIMITED');
    expect((await refusalOf(windows.admit('key_c', { requests: 2 }, 0))).message).toContain('2 requests');
  });

  it('admits everything when the key has no request or token limit', async () => {
    const windows = createRateWindows();
    for (let index = 0; index < 50; index++) await windows.admit('key_a', { concurrency: 1 }, 1_000_000);
  });
});
