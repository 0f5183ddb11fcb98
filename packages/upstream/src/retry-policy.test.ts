import { GatewayError } from '@signalbox/core';
import { createConnectionsBusyError } from './create-connections-busy-error';
import { parseRetryAfterMs } from './parse-retry-after';
import { defaultRetryPolicy, getRetryDelayMs } from './retry-policy';

const error = (code: ConstructorParameters<typeof GatewayError>[0]['code'], retryAfterMs?: number) =>
  new GatewayError({ code, message: 'x', ...(retryAfterMs !== undefined && { retryAfterMs }) });

describe('getRetryDelayMs', () => {
  const policy = defaultRetryPolicy;

  it('retries safe failures with capped, jittered exponential backoff', () => {
    expect(getRetryDelayMs({ error: error('UPSTREAM_OVERLOADED'), attempt: 1, policy, random: () => 0 })).toBe(250);
    expect(getRetryDelayMs({ error: error('UPSTREAM_UNREACHABLE'), attempt: 2, policy, random: () => 0 })).toBe(500);
    expect(getRetryDelayMs({ error: error('UPSTREAM_RATE_LIMITED'), attempt: 1, policy, random: () => 1 })).toBe(187.5);
  });

  it('stops at the attempt cap (3 in total, counting the first)', () => {
    expect(getRetryDelayMs({ error: error('UPSTREAM_OVERLOADED'), attempt: 3, policy })).toBeUndefined();
  });

  it('prefers the upstream Retry-After and gives up on long ones', () => {
    expect(getRetryDelayMs({ error: error('UPSTREAM_RATE_LIMITED', 1500), attempt: 1, policy })).toBe(1500);
    expect(getRetryDelayMs({ error: error('UPSTREAM_RATE_LIMITED', 60_000), attempt: 1, policy })).toBeUndefined();
  });

  it('retries (or fails over) a request refused because every connection to its upstream stayed busy, after its Retry-After', () => {
    expect(getRetryDelayMs({ error: createConnectionsBusyError(5_000), attempt: 1, policy })).toBe(1_000);
    expect(getRetryDelayMs({ error: createConnectionsBusyError(5_000), attempt: 3, policy })).toBeUndefined();
  });

  it('never replays ambiguous failures unless the route opts in', () => {
    expect(getRetryDelayMs({ error: error('UPSTREAM_TIMEOUT'), attempt: 1, policy })).toBeUndefined();
    expect(getRetryDelayMs({ error: error('UPSTREAM_FAILED'), attempt: 1, policy })).toBeUndefined();
    const replaying = { ...policy, replayAmbiguous: true };
    expect(getRetryDelayMs({ error: error('UPSTREAM_TIMEOUT'), attempt: 1, policy: replaying, random: () => 0 })).toBe(250);
  });

  it('never retries client mistakes or auth failures', () => {
    expect(getRetryDelayMs({ error: error('UPSTREAM_INVALID_REQUEST'), attempt: 1, policy })).toBeUndefined();
    expect(getRetryDelayMs({ error: error('UPSTREAM_AUTH_FAILED'), attempt: 1, policy })).toBeUndefined();
  });
});

describe('parseRetryAfterMs', () => {
  it('reads retry-after-ms, then seconds, then an HTTP date', () => {
    expect(parseRetryAfterMs({ 'retry-after-ms': '120', 'retry-after': '5' })).toBe(120);
    expect(parseRetryAfterMs({ 'retry-after': '2' })).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(parseRetryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parseRetryAfterMs({})).toBeUndefined();
  });
});
