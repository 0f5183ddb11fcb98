import type { CircuitBreakerConfig } from '../config/credential-config';

/**
 * One circuit (of a credential, or of a whole upstream), as plain data the functions below change
 * in place, so the request path allocates nothing: closed while `openUntil` is 0; open until that
 * time (epoch ms); half-open after it, when one probe (`probing`) may go through.
 */
export type CircuitBreaker = {
  readonly settings: CircuitBreakerConfig;
  openUntil: number;
  /** A probe is in flight on the half-open circuit: nothing else goes through until it ends. */
  probing: boolean;
  /** The times of the latest failures since the last success, a ring of `settings.failures` slots. */
  readonly failures: number[];
  /** Failures in the ring (at most `settings.failures`). */
  count: number;
  /** The slot the next failure is written to: once the ring is full, the oldest failure's. */
  next: number;
};

export type CircuitState = 'closed' | 'open' | 'half-open';

export function createCircuitBreaker(settings: CircuitBreakerConfig): CircuitBreaker {
  return { settings, openUntil: 0, probing: false, failures: new Array<number>(settings.failures).fill(0), count: 0, next: 0 };
}

export function circuitState(breaker: CircuitBreaker, now: number): CircuitState {
  if (breaker.openUntil === 0) return 'closed';
  return now < breaker.openUntil ? 'open' : 'half-open';
}

/** Whether a request may go through now: the circuit is closed, or half-open with no probe in flight. */
export function circuitAllows(breaker: CircuitBreaker, now: number): boolean {
  return breaker.openUntil === 0 || (now >= breaker.openUntil && !breaker.probing);
}

/** A request goes through (after `circuitAllows`): on a half-open circuit it is the probe. */
export function circuitTake(breaker: CircuitBreaker, now: number): void {
  if (breaker.openUntil !== 0 && now >= breaker.openUntil) breaker.probing = true;
}

/** A request succeeded: the failure count starts again; a half-open circuit closes (returns true then). */
export function circuitSucceeded(breaker: CircuitBreaker, now: number): boolean {
  breaker.count = 0;
  if (breaker.openUntil === 0 || now < breaker.openUntil) return false;
  closeCircuit(breaker);
  return true;
}

/**
 * A request failed with a server error or a connection failure. Opens the circuit (returns true)
 * when this is the `failures`-th within `windowMs`, or when the circuit was half-open (its probe
 * failed). A failure while it is open (a request that began before) changes nothing.
 */
export function circuitFailed(breaker: CircuitBreaker, now: number): boolean {
  const { settings } = breaker;
  if (breaker.openUntil !== 0) {
    if (now < breaker.openUntil) return false;
    openCircuit(breaker, now + settings.openMs);
    return true;
  }
  breaker.failures[breaker.next] = now;
  breaker.next = (breaker.next + 1) % settings.failures;
  breaker.count = Math.min(breaker.count + 1, settings.failures);
  // A full ring's oldest failure is the one the next will overwrite.
  if (breaker.count < settings.failures || now - breaker.failures[breaker.next]! > settings.windowMs) return false;
  openCircuit(breaker, now + settings.openMs);
  return true;
}

/** Opens the circuit until `until` (learned here, or from another instance); a later time wins. */
export function openCircuit(breaker: CircuitBreaker, until: number): void {
  breaker.openUntil = Math.max(breaker.openUntil, until);
  breaker.probing = false;
  breaker.count = 0;
}

export function closeCircuit(breaker: CircuitBreaker): void {
  breaker.openUntil = 0;
  breaker.probing = false;
  breaker.count = 0;
}

/** A probe ended without a verdict (its client left): another request may probe. */
export function releaseProbe(breaker: CircuitBreaker): void {
  breaker.probing = false;
}
