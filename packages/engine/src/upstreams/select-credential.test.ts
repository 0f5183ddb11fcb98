import type { UpstreamClient } from '@signalbox/upstream';
import { circuitFailed, createCircuitBreaker } from './circuit-breaker';
import type { CredentialPool, PooledCredential } from './credential-pool';
import { hasOtherUsable, poolReadyInMs, releaseCredential, selectCredential, takeCredential } from './select-credential';

const T0 = 1_767_225_600_000;
const BREAKER = { failures: 1, windowMs: 10_000, openMs: 30_000 };
const client: UpstreamClient = { baseURL: 'http://127.0.0.1:9', send: () => Promise.reject(new Error('not called')), close: async () => undefined };

/** A pool of credentials named a, b, c… with these weights. */
function poolOf(...weights: number[]): CredentialPool {
  const credentials: PooledCredential[] = [];
  const pool: CredentialPool = { upstream: 'main', protocol: 'openai-responses', credentials, breaker: createCircuitBreaker(BREAKER), secrets: [] };
  weights.forEach((weight, index) => {
    credentials.push({
      name: String.fromCharCode(97 + index),
      pool,
      client,
      headers: {},
      authorize: undefined,
      weight,
      apiKeyEnv: undefined,
      inFlight: 0,
      coolingUntil: 0,
      disabled: undefined,
      breaker: createCircuitBreaker(BREAKER),
      lastErrorCode: undefined,
      lastErrorAt: undefined,
      current: 0,
    });
  });
  return pool;
}

/** The names of `count` credentials chosen one after another, each released before the next (no load). */
function sequence(pool: CredentialPool, count: number, now = T0): string {
  let names = '';
  for (let index = 0; index < count; index += 1) {
    const credential = selectCredential(pool, now)!;
    takeCredential(credential, now);
    releaseCredential(credential, true);
    names += credential.name;
  }
  return names;
}

const named = (pool: CredentialPool, name: string) => pool.credentials.find(credential => credential.name === name)!;

describe('selectCredential', () => {
  it('shares requests by weight when nothing is in flight, interleaved rather than in runs', () => {
    expect(sequence(poolOf(1, 1, 1), 6)).toBe('abcabc');
    expect(sequence(poolOf(3, 1), 8)).toBe('aabaaaba');
    const counts = [...sequence(poolOf(5, 3, 2), 1_000)].reduce<Record<string, number>>((tally, name) => ({ ...tally, [name]: (tally[name] ?? 0) + 1 }), {});
    expect(counts).toEqual({ a: 500, b: 300, c: 200 });
  });

  it('takes the credential with the fewest requests in flight for its weight', () => {
    const pool = poolOf(1, 1, 2);
    named(pool, 'a').inFlight = 1;
    named(pool, 'b').inFlight = 0;
    named(pool, 'c').inFlight = 1;
    expect(selectCredential(pool, T0)?.name).toBe('b');
    named(pool, 'b').inFlight = 1;
    // c carries 1 for a weight of 2: half the load of a and b.
    expect(selectCredential(pool, T0)?.name).toBe('c');
  });

  it('keeps in-flight requests proportional to the weights under load', () => {
    const pool = poolOf(3, 1);
    for (let request = 0; request < 40; request += 1) takeCredential(selectCredential(pool, T0)!, T0);
    expect([named(pool, 'a').inFlight, named(pool, 'b').inFlight]).toEqual([30, 10]);
  });

  it('skips a credential taken out, cooling down or behind an open circuit, and answers none when all are', () => {
    const pool = poolOf(1, 1, 1);
    named(pool, 'a').disabled = 'upstream-401';
    named(pool, 'b').coolingUntil = T0 + 5_000;
    expect(sequence(pool, 3)).toBe('ccc');
    circuitFailed(named(pool, 'c').breaker, T0);
    expect(selectCredential(pool, T0 + 1)).toBeUndefined();
    expect(selectCredential(pool, T0 + 5_000)?.name).toBe('b');
  });

  it('answers none while the upstream’s own circuit is open, whatever its credentials', () => {
    const pool = poolOf(1, 1);
    circuitFailed(pool.breaker, T0);
    expect(selectCredential(pool, T0 + 1)).toBeUndefined();
    expect(hasOtherUsable(pool, named(pool, 'a'), T0 + 1)).toBe(false);
  });

  it('takes the preferred credential while it is usable, and chooses as usual once it is not', () => {
    const pool = poolOf(1, 1, 1);
    expect(selectCredential(pool, T0, 'c')?.name).toBe('c');
    named(pool, 'c').coolingUntil = T0 + 1_000;
    expect(selectCredential(pool, T0, 'c')?.name).not.toBe('c');
    expect(selectCredential(pool, T0, 'nobody')).toBeDefined();
  });

  it('lets one probe through a half-open credential circuit, and another request once it ended without a verdict', () => {
    const pool = poolOf(1);
    const only = named(pool, 'a');
    circuitFailed(only.breaker, T0);
    const later = T0 + 30_000;
    const probe = selectCredential(pool, later)!;
    takeCredential(probe, later);
    expect(selectCredential(pool, later)).toBeUndefined();
    releaseCredential(probe, false);
    expect(selectCredential(pool, later)).toBe(only);
  });
});

describe('poolReadyInMs', () => {
  it('is 0 with a usable credential, the soonest end of a cooldown or open circuit otherwise, undefined when all are taken out', () => {
    const pool = poolOf(1, 1);
    expect(poolReadyInMs(pool, T0)).toBe(0);
    named(pool, 'a').coolingUntil = T0 + 4_000;
    circuitFailed(named(pool, 'b').breaker, T0);
    expect(poolReadyInMs(pool, T0)).toBe(4_000);
    named(pool, 'a').disabled = 'upstream-403';
    expect(poolReadyInMs(pool, T0)).toBe(30_000);
    named(pool, 'b').disabled = 'key-missing';
    expect(poolReadyInMs(pool, T0)).toBeUndefined();
  });
});
