import type { SessionAffinityConfig } from '../config/gateway-config';
import type { UpstreamTarget } from '../generation/upstream-target';
import { circuitAllows } from '../upstreams/circuit-breaker';
import type { AffinityPin, AffinityStore } from './affinity-store';

/** Why a conversation left the credential it kept: its state when another one served it. */
export type AffinityMoveReason = 'cooling-down' | 'disabled' | 'circuit-open' | 'failed';

/**
 * What became of a conversation's credential on one served request: `kept` (its pinned one served),
 * `new` (it had none, or none its route still has), or `moved` by force (the pinned one could not
 * serve it, another did). Names only upstreams and credentials by their config names.
 */
export type AffinityOutcome =
  | { route: string; result: 'kept' | 'new'; upstream: string; credential: string }
  | { route: string; result: 'moved'; upstream: string; credential: string; from: AffinityPin; reason: AffinityMoveReason };

/** What a route does with conversations, decided once when the engine starts. */
export type RouteAffinity = {
  /** It keeps each conversation on one credential: affinity is on and there is a choice to make. Only then do its requests get a conversation key. */
  sticky: boolean;
};

/** The engine's session affinity: where pins live and for how long. */
export type SessionAffinity = { store: AffinityStore; idleMs: number };

/**
 * A route keeps conversations when affinity is on for it (its own `sessionAffinity`, else the
 * config's) and its targets offer a choice: more than one target, or a pool of several credentials.
 * A route of one single-credential target does no affinity work at all, not even a conversation
 * key: its client's body goes upstream as sent, and an OpenAI upstream keeps a conversation on its
 * cache by the prompt's prefix as it would without the gateway.
 */
export function routeAffinityOf(
  config: SessionAffinityConfig,
  routeSetting: boolean | undefined,
  targets: readonly { upstream: UpstreamTarget }[],
): RouteAffinity {
  const choice = targets.length > 1 || targets.some(({ upstream }) => upstream.pool.credentials.length > 1);
  return { sticky: (routeSetting ?? config.enabled) && choice };
}

/** The route's targets with the pinned one first, when it is one of them; the route's order after it. */
export function targetsFor<Target extends { upstream: UpstreamTarget }>(targets: readonly Target[], pin: AffinityPin | undefined): readonly Target[] {
  if (pin === undefined) return targets;
  const index = targets.findIndex(target => target.upstream.name === pin.upstream);
  if (index <= 0) return targets;
  return [targets[index]!, ...targets.slice(0, index), ...targets.slice(index + 1)];
}

/**
 * What became of the conversation pinned to `pin` now that `served` answered it: a move is forced
 * when the pinned credential is still in the route but was not usable (its state says why) or failed
 * during the request.
 */
export function affinityOutcome(
  route: string,
  targets: readonly { upstream: UpstreamTarget }[],
  pin: AffinityPin | undefined,
  served: AffinityPin,
  now: number,
): AffinityOutcome {
  if (pin?.upstream === served.upstream && pin.credential === served.credential) return { route, result: 'kept', ...served };
  const pool = pin && targets.find(target => target.upstream.name === pin.upstream)?.upstream.pool;
  const credential = pool?.credentials.find(candidate => candidate.name === pin!.credential);
  if (!pin || !pool || !credential) return { route, result: 'new', ...served };
  let reason: AffinityMoveReason = 'failed';
  if (credential.disabled !== undefined) reason = 'disabled';
  else if (credential.coolingUntil > now) reason = 'cooling-down';
  else if (!circuitAllows(credential.breaker, now) || !circuitAllows(pool.breaker, now)) reason = 'circuit-open';
  return { route, result: 'moved', ...served, from: pin, reason };
}

/** The usage record's warning of a forced move: upstream and credential names and the reason, nothing else. */
export function affinityMoveWarning(outcome: Extract<AffinityOutcome, { result: 'moved' }>): string {
  const { from } = outcome;
  return `sessionAffinity (moved from ${from.upstream}/${from.credential} to ${outcome.upstream}/${outcome.credential}: ${outcome.reason})`;
}

/** Pins what served the conversation when that changed; a kept pin's expiry was already restarted by its lookup. */
export function rememberServed(affinity: SessionAffinity, key: string, outcome: AffinityOutcome): void {
  if (outcome.result !== 'kept') affinity.store.set(key, { upstream: outcome.upstream, credential: outcome.credential }, affinity.idleMs);
}
