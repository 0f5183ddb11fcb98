import { circuitAllows, circuitTake, releaseProbe, type CircuitBreaker } from './circuit-breaker';
import type { CredentialPool, PooledCredential } from './credential-pool';

/** Whether `credential` may take a request now: keyed, not taken out, not cooling down, its circuit letting it through. */
export function isUsable(credential: PooledCredential, now: number): boolean {
  return credential.disabled === undefined && credential.coolingUntil <= now && circuitAllows(credential.breaker, now);
}

/**
 * The credential the next request to this upstream uses, or `undefined` when none may take one now
 * (the upstream's circuit is open, or every credential is taken out, cooling down or behind an open
 * circuit). `preferred` (a credential's name) is taken when it is usable. Otherwise: the fewest
 * requests in flight for its weight, ties going to smooth weighted round robin, so idle credentials
 * share requests by weight and busy ones by load. A pool of one answers without looking further.
 */
export function selectCredential(pool: CredentialPool, now: number, preferred?: string): PooledCredential | undefined {
  if (!circuitAllows(pool.breaker, now)) return undefined;
  const { credentials } = pool;
  if (credentials.length === 1) return isUsable(credentials[0]!, now) ? credentials[0] : undefined;
  if (preferred !== undefined) {
    const asked = credentials.find(credential => credential.name === preferred);
    if (asked && isUsable(asked, now)) return asked;
  }
  const least = leastLoaded(credentials, now);
  if (least === undefined) return undefined;
  return roundRobinAmongEqual(credentials, least, now);
}

/** A usable credential with the fewest requests in flight for its weight. */
function leastLoaded(credentials: readonly PooledCredential[], now: number): PooledCredential | undefined {
  let least: PooledCredential | undefined;
  for (const credential of credentials) {
    if (!isUsable(credential, now)) continue;
    if (least === undefined || compareLoad(credential, least) < 0) least = credential;
  }
  return least;
}

/** Smooth weighted round robin over the usable credentials exactly as loaded as `least`. */
function roundRobinAmongEqual(credentials: readonly PooledCredential[], least: PooledCredential, now: number): PooledCredential {
  let chosen = least;
  let highest = -Infinity;
  let total = 0;
  for (const credential of credentials) {
    if (!isUsable(credential, now) || compareLoad(credential, least) !== 0) continue;
    credential.current += credential.weight;
    total += credential.weight;
    if (credential.current > highest) {
      highest = credential.current;
      chosen = credential;
    }
  }
  chosen.current -= total;
  return chosen;
}

/** In-flight per weight, compared without division: negative when `first` is less loaded. */
function compareLoad(first: PooledCredential, second: PooledCredential): number {
  return first.inFlight * second.weight - second.inFlight * first.weight;
}

/** An attempt starts on `credential`: counted in flight, and the probe of a half-open circuit (its own, its upstream's). */
export function takeCredential(credential: PooledCredential, now: number): void {
  credential.inFlight += 1;
  circuitTake(credential.breaker, now);
  circuitTake(credential.pool.breaker, now);
}

/**
 * An attempt on `credential` is over (its request settled, or it failed before its answer):
 * `judged` says whether its success or failure was learned; a probe that ended without either
 * (its client left) lets another request probe.
 */
export function releaseCredential(credential: PooledCredential, judged: boolean): void {
  credential.inFlight -= 1;
  if (judged) return;
  releaseProbe(credential.breaker);
  releaseProbe(credential.pool.breaker);
}

/**
 * How long until some credential of the pool may take a request again, in ms: 0 when one may now,
 * `undefined` when none ever will by itself (each is taken out). A probe in flight counts as a
 * second away: its verdict comes with its answer.
 */
export function poolReadyInMs(pool: CredentialPool, now: number): number | undefined {
  let soonest: number | undefined;
  for (const credential of pool.credentials) {
    if (credential.disabled !== undefined) continue;
    const ready = Math.max(credential.coolingUntil, readyAt(credential.breaker, now)) - now;
    soonest = Math.max(0, soonest === undefined ? ready : Math.min(soonest, ready));
  }
  return soonest === undefined ? undefined : Math.max(soonest, readyAt(pool.breaker, now) - now);
}

/** When a circuit lets a request through: now when closed, at `openUntil` when open, a second on while a probe is out. */
function readyAt(breaker: CircuitBreaker, now: number): number {
  if (breaker.openUntil === 0) return now;
  if (now < breaker.openUntil) return breaker.openUntil;
  return breaker.probing ? now + PROBE_WAIT_MS : now;
}

const PROBE_WAIT_MS = 1_000;

/** Whether another credential of the pool than `other` may take a request now (a move after a 429 or 401). */
export function hasOtherUsable(pool: CredentialPool, other: PooledCredential, now: number): boolean {
  if (!circuitAllows(pool.breaker, now)) return false;
  return pool.credentials.some(credential => credential !== other && isUsable(credential, now));
}
