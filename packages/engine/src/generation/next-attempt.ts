import { GatewayError } from '@signalbox/core';
import { getRetryDelayMs, type RetryPolicy } from '@signalbox/upstream';
import type { PooledCredential } from '../upstreams/credential-pool';
import { hasOtherUsable, poolReadyInMs } from '../upstreams/select-credential';
import type { UpstreamTarget } from './upstream-target';

/** Where the next attempt goes (an index into the route's targets) and when: after a wait (ms) or at once. */
export type NextAttempt = { index: number; delay: number | 'at-once' };

/** What deciding the next attempt reads: the route's targets, the policy, the attempts made, the failed one. */
export type FailedAttempt = {
  targets: readonly { upstream: UpstreamTarget }[];
  policy: RetryPolicy;
  attempts: number;
  /** The target index and credential of the attempt that failed (none when its target had no usable one). */
  index: number;
  credential: PooledCredential | undefined;
  now: number;
};

/**
 * The attempt after a failure, or `undefined` for none (at most `policy.maxAttempts` in all). A
 * 429 or a refused key moves at once to another usable credential of the same upstream; a refused
 * key with none left, or an upstream without a usable credential, goes at once to the next target
 * (none after the last); any other failure follows the retry policy, to the next target (the last
 * one retried).
 */
export function nextAttempt(failure: GatewayError, failed: FailedAttempt): NextAttempt | undefined {
  const { targets, policy, attempts, index, credential, now } = failed;
  if (attempts >= policy.maxAttempts) return undefined;
  const last = targets.length - 1;
  if (credential && movesToAnotherCredential(failure) && hasOtherUsable(targets[index]!.upstream.pool, credential, now)) {
    return { index, delay: 'at-once' };
  }
  if (failure.code === 'NO_ACCOUNT_AVAILABLE' || failure.code === 'UPSTREAM_AUTH_FAILED') {
    return index < last ? { index: index + 1, delay: 'at-once' } : undefined;
  }
  const delay = getRetryDelayMs({ error: failure, attempt: attempts, policy });
  return delay === undefined ? undefined : { index: Math.min(index + 1, last), delay };
}

/** Failures of one credential rather than of its upstream: its rate limit, its key refused. */
function movesToAnotherCredential(failure: GatewayError): boolean {
  return (failure.code === 'UPSTREAM_RATE_LIMITED' && failure.upstream !== undefined) || failure.code === 'UPSTREAM_AUTH_FAILED';
}

/**
 * 503 `NO_ACCOUNT_AVAILABLE`: no credential of a target may take the request now (each is cooling
 * down, taken out, behind an open circuit, or has no key). `Retry-After` is when the first credential
 * of any of the route's targets is back, when one will be by itself.
 */
export function noAccountAvailable(targets: readonly { upstream: UpstreamTarget }[], now: number): GatewayError {
  let soonest: number | undefined;
  for (const { upstream } of targets) {
    const ready = poolReadyInMs(upstream.pool, now);
    if (ready !== undefined) soonest = soonest === undefined ? ready : Math.min(soonest, ready);
  }
  return new GatewayError({
    code: 'NO_ACCOUNT_AVAILABLE',
    message: 'No upstream account is available for this model right now.',
    ...(soonest !== undefined && { retryAfterMs: soonest }),
  });
}
