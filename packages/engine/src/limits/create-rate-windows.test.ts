import { GatewayError } from '@switchyard/core';
import { createRateWindows } from './create-rate-windows';

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
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
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

describe('createRateWindows', () => {
  it('admits up to the request limit, then refuses with the time left in the window', async () => {
    const clock = createTestClock();
    const windows = createRateWindows(clock);
    const limits = { requests: 3 };
    for (let index = 0; index < 3; index++) await windows.admit('key_a', limits, 0);
    clock.advance(15_000);
    const error = await refusalOf(windows.admit('key_a', limits, 0));
    expect([error.code, error.status]).toEqual(['RATE_LIMITED', 429]);
    expect(error.message).toBe('Rate limit reached: this key allows 3 requests per 60 seconds. Try again in 45 s.');
    expect(error.retryAfterMs).toBe(45_000);
  });

  it('admits again exactly when a 1-second window ends, on the clock it is given', async () => {
    const clock = createTestClock();
    const windows = createRateWindows(clock);
    const limits = { requests: 1, windowSeconds: 1 };
    await windows.admit('key_a', limits, 0);
    expect((await refusalOf(windows.admit('key_a', limits, 0))).retryAfterMs).toBe(1_000);
    clock.advance(999);
    expect((await refusalOf(windows.admit('key_a', limits, 0))).retryAfterMs).toBe(1);
    clock.advance(1);
    await expect(windows.admit('key_a', limits, 0)).resolves.toBeUndefined();
    expect((await refusalOf(windows.admit('key_a', limits, 0))).retryAfterMs).toBe(1_000);
  });

  it('opens the window with the first request, not on a wall-clock boundary', async () => {
    const clock = createTestClock();
    const windows = createRateWindows(clock);
    const limits = { requests: 2, windowSeconds: 10 };
    await windows.admit('key_a', limits, 0);
    clock.advance(9_000);
    await windows.admit('key_a', limits, 0);
    expect((await refusalOf(windows.admit('key_a', limits, 0))).retryAfterMs).toBe(1_000);
    clock.advance(1_000);
    // A new window of 10 s opens with this request; both requests of the old one are forgotten.
    await windows.admit('key_a', limits, 0);
    await windows.admit('key_a', limits, 0);
    expect((await refusalOf(windows.admit('key_a', limits, 0))).retryAfterMs).toBe(10_000);
  });

  it('reports the time left in the token window, and resets it when the window ends', async () => {
    const clock = createTestClock();
    const windows = createRateWindows(clock);
    const limits = { tokens: 100, windowSeconds: 30 };
    await windows.admit('key_a', limits, 100);
    expect((await refusalOf(windows.admit('key_a', limits, 1))).retryAfterMs).toBe(30_000);
    clock.advance(10_000);
    expect((await refusalOf(windows.admit('key_a', limits, 1))).retryAfterMs).toBe(20_000);
    clock.advance(20_000);
    await expect(windows.admit('key_a', limits, 100)).resolves.toBeUndefined();
  });

  it('refuses an estimate larger than the whole token window with a 413 and without counting it', async () => {
    const windows = createRateWindows(createTestClock());
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
    const windows = createRateWindows(createTestClock());
    const limits = { tokens: 100 };
    await windows.admit('key_a', limits, 80);
    const error = await refusalOf(windows.admit('key_a', limits, 30));
    expect(error.message).toBe(
      'Token rate limit reached: this key allows 100 tokens per 60 seconds and this request needs about 30 (estimated) and only 20 are left in this window. Try again in 60 s.',
    );
    await expect(windows.admit('key_a', limits, 20)).resolves.toBeUndefined();
  });

  it('rounds fractional estimates up to whole tokens', async () => {
    const windows = createRateWindows(createTestClock());
    const limits = { tokens: 10 };
    await windows.admit('key_a', limits, 4.2);
    expect((await refusalOf(windows.admit('key_a', limits, 5.5))).message).toContain('needs about 6 (estimated) and only 5 are left');
  });

  it('lets charges push the token window over its limit so the next request waits for the window’s end', async () => {
    const clock = createTestClock();
    const windows = createRateWindows(clock);
    const limits = { tokens: 100, windowSeconds: 60 };
    await windows.admit('key_a', limits, 50);
    clock.advance(5_000);
    await windows.charge('key_a', limits, 60);
    const error = await refusalOf(windows.admit('key_a', limits, 0));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toContain('100 tokens per 60 seconds and 110 of them are used');
    expect(error.retryAfterMs).toBe(55_000);
    clock.advance(55_000);
    await expect(windows.admit('key_a', limits, 100)).resolves.toBeUndefined();
  });

  it('opens a token window with a charge when no request opened one', async () => {
    const clock = createTestClock();
    const windows = createRateWindows(clock);
    const limits = { tokens: 10, windowSeconds: 20 };
    await windows.charge('key_a', limits, 10);
    clock.advance(5_000);
    expect((await refusalOf(windows.admit('key_a', limits, 1))).retryAfterMs).toBe(15_000);
  });

  it('never throws from charge, whatever it is given, and counts nothing it cannot count', async () => {
    const windows = createRateWindows(createTestClock());
    await expect(windows.charge('key_a', {}, 500)).resolves.toBeUndefined();
    await expect(windows.charge('key_a', { tokens: 10 }, Number.NaN)).resolves.toBeUndefined();
    await expect(windows.charge('key_a', { tokens: 10 }, -5)).resolves.toBeUndefined();
    await expect(windows.charge('key_a', { tokens: 10 }, Number.POSITIVE_INFINITY)).resolves.toBeUndefined();
    await expect(windows.admit('key_a', { tokens: 10 }, 10)).resolves.toBeUndefined();
  });

  it('does not count the request when the token window refuses it', async () => {
    const windows = createRateWindows(createTestClock());
    const limits = { requests: 2, tokens: 100 };
    await windows.admit('key_a', limits, 80);
    await refusalOf(windows.admit('key_a', limits, 50));
    // Passes only if the refused request took neither a request point nor its 50 tokens.
    await expect(windows.admit('key_a', limits, 20)).resolves.toBeUndefined();
    const error = await refusalOf(windows.admit('key_a', { requests: 2 }, 0));
    expect(error.message).toContain('2 requests per 60 seconds');
  });

  it('does not count a request the requests window refuses', async () => {
    const clock = createTestClock();
    const windows = createRateWindows(clock);
    const limits = { requests: 1, tokens: 100 };
    await windows.admit('key_a', limits, 10);
    expect((await refusalOf(windows.admit('key_a', limits, 30))).message).toContain('1 requests per 60 seconds');
    // The refused request's 30 tokens were not counted: 90 still fit once the request window allows.
    await expect(windows.admit('key_a', { tokens: 100 }, 90)).resolves.toBeUndefined();
  });

  it('admits only one of two concurrent requests whose tokens fit once, and counts only that one', async () => {
    const windows = createRateWindows(createTestClock());
    const limits = { requests: 2, tokens: 100 };
    const outcomes = await Promise.allSettled([windows.admit('key_a', limits, 60), windows.admit('key_a', limits, 60)]);
    expect(outcomes.map(outcome => outcome.status)).toEqual(['fulfilled', 'rejected']);
    expect(outcomes[1]).toEqual({ status: 'rejected', reason: expect.objectContaining({ code: 'RATE_LIMITED' }) });
    await expect(windows.admit('key_a', limits, 40)).resolves.toBeUndefined();
    expect((await refusalOf(windows.admit('key_a', { requests: 2 }, 0))).message).toContain('2 requests');
  });

  it('keeps keys, and keys with different limits, apart', async () => {
    const windows = createRateWindows(createTestClock());
    await windows.admit('key_a', { requests: 1 }, 0);
    await windows.admit('key_b', { requests: 1 }, 0);
    await windows.admit('key_c', { requests: 2 }, 0);
    await windows.admit('key_c', { requests: 2 }, 0);
    expect((await refusalOf(windows.admit('key_a', { requests: 1 }, 0))).code).toBe('RATE_LIMITED');
    expect((await refusalOf(windows.admit('key_c', { requests: 2 }, 0))).message).toContain('2 requests');
    // A key whose limit changes counts afresh under the new limit.
    await expect(windows.admit('key_a', { requests: 5 }, 0)).resolves.toBeUndefined();
  });

  it('admits everything when the key has no request or token limit', async () => {
    const windows = createRateWindows(createTestClock());
    const admitted = [];
    for (let index = 0; index < 50; index++) admitted.push(await windows.admit('key_a', { concurrency: 1 }, 1_000_000));
    expect(admitted).toEqual(Array.from({ length: 50 }, () => undefined));
  });

  it('uses the system clock when none is given', async () => {
    const windows = createRateWindows();
    await windows.admit('key_a', { requests: 1, windowSeconds: 30 }, 0);
    const error = await refusalOf(windows.admit('key_a', { requests: 1, windowSeconds: 30 }, 0));
    expect(error.retryAfterMs).toBeGreaterThan(29_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
  });
});
