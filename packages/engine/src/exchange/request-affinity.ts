import type { GenerationRequest } from '@signalbox/core';
import type { AffinityPin } from '../affinity/affinity-store';
import { deriveConversationKey } from '../affinity/derive-conversation-key';
import { affinityMoveWarning, affinityOutcome, rememberServed, type RouteAffinity } from '../affinity/session-affinity';
import type { Attempt } from '../generation/attempt-targets';
import type { UpstreamTarget } from '../generation/upstream-target';
import type { ExchangeDependencies } from './exchange-dependencies';
import { principalOf, type ExchangeState } from './exchange-state';

/** A request's lookup of its conversation's pin: a value at once from memory, a promise from a shared store. */
export type PinLookup = AffinityPin | undefined | Promise<AffinityPin | undefined>;

/**
 * On a route that keeps conversations: sets the request's conversation key on `state` (it also
 * becomes the prompt cache key of an OpenAI upstream when the client sent none) and starts the
 * lookup of the credential the conversation keeps, which also restarts its idle expiry: one map
 * read in memory, one round trip to a shared store. Any other route does nothing here.
 */
export function lookUpAffinity(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  routeAffinity: RouteAffinity,
  request: GenerationRequest,
  chainKey: string | undefined,
): PinLookup {
  if (!routeAffinity.sticky) return undefined;
  const { account, key } = principalOf(state);
  const conversationKey = deriveConversationKey({
    accountId: account.id,
    keyId: key.id,
    route: state.route!,
    request,
    headers: state.headers,
    chainKey,
  });
  state.conversationKey = conversationKey;
  return dependencies.affinity.store.get(conversationKey, dependencies.affinity.idleMs);
}

/**
 * After a served request: what became of its conversation's credential (told to the observer; a
 * forced move also becomes a warning on the usage record, not in the client's warnings header, as
 * credential names are the operator's), and the credential that served pinned when it changed.
 */
export function settleAffinity(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  targets: readonly { upstream: UpstreamTarget }[],
  pin: AffinityPin | undefined,
  attempt: Attempt,
): void {
  const { target, credential } = attempt;
  const key = state.conversationKey;
  if (!target || !credential || key === undefined) return;
  const served = { upstream: target.name, credential: credential.name };
  const outcome = affinityOutcome(state.route!, targets, pin, served, dependencies.clock.now());
  if (outcome.result === 'moved') attempt.warnings = [...attempt.warnings, affinityMoveWarning(outcome)];
  dependencies.observer?.sessionAffinity?.(outcome);
  rememberServed(dependencies.affinity, key, outcome);
}
