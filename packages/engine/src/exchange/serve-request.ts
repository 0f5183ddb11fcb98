import { refuseWebSocketRoute } from '../routing/refuse-web-socket-route';
import type { GenerationRequest, TranslationWarning } from '@signalbox/core';
import { defaultRetryPolicy, type RetryPolicy } from '@signalbox/upstream';
import { admitRequest } from '../admission/admit-request';
import { applyOutputCap } from '../admission/apply-output-cap';
import { targetsFor } from '../affinity/session-affinity';
import { attemptTargets } from '../generation/attempt-targets';
import type { FrameTap } from '../generation/frame-tap';
import type { FrameFormat } from '../generation/frame-format';
import type { UpstreamAnswer } from '../generation/generation-output';
import { withConversationCacheKey } from '../generation/with-conversation-cache-key';
import type { Interruption } from '../interruption/create-interruptions';
import { planReasoningReplay } from '../reasoning/plan-reasoning-replay';
import type { ExchangeDependencies } from './exchange-dependencies';
import { principalOf, type ExchangeState } from './exchange-state';
import { lookUpAffinity, settleAffinity } from './request-affinity';

/** What one upstream generation is made from. */
export type ServedRequest = {
  request: GenerationRequest;
  /** The client's body, passed through to an upstream of its own protocol; none for a request the gateway wrote. */
  body: unknown;
  /** What decoding the client's body lost in the IR (listed for an upstream sent the IR, not the body). */
  warnings: readonly TranslationWarning[];
  /** Sees a stream's frames before the client does (the terminal response a conversation keeps). */
  frameTap?: FrameTap | undefined;
  /** The conversation key kept with the response its `previous_response_id` names. */
  chainKey?: string | undefined;
  /** Each stream message's text for the transport; default: the SSE frame. */
  formatFrame?: FrameFormat | undefined;
};

/** The retry policy of a route that replays ambiguous failures, and of one that does not: made once, not per request. */
const RETRY_POLICIES = {
  replaying: { ...defaultRetryPolicy, replayAmbiguous: true },
  notReplaying: { ...defaultRetryPolicy, replayAmbiguous: false },
} as const satisfies Record<string, RetryPolicy>;

function retryPolicyOf(replayAmbiguous: boolean): RetryPolicy {
  return replayAmbiguous ? RETRY_POLICIES.replaying : RETRY_POLICIES.notReplaying;
}

/**
 * Routes, admits and sends one request to its route's targets, and returns the answer, not yet
 * delivered. The route's deadline, counted from the request's arrival, is set on `interruption`:
 * the generation's watch, which its run started.
 */
export async function serveRequest(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  interruption: Interruption,
  served: ServedRequest,
  signal: AbortSignal,
): Promise<UpstreamAnswer> {
  const { codec } = state;
  const { request, frameTap } = served;
  state.model = request.model;
  state.stream = request.stream;
  // One read: the request keeps this config's routes and upstreams to its end, whatever changes meanwhile.
  const routing = dependencies.routing.current;
  const route = routing.table.resolve(request.model, codec.protocol);
  state.route = route.model;
  refuseWebSocketRoute(state, route);
  interruption.setDeadline(route.deadlineMs);
  const routeAffinity = routing.affinityOf(route.model);
  // Looked up while the request is admitted: a shared store's round trip overlaps the limiter's.
  const lookup = lookUpAffinity(state, dependencies, routeAffinity, request, served.chainKey);
  state.admission = await admitRequest({
    request,
    route,
    principal: principalOf(state),
    store: dependencies.store,
    limiter: dependencies.limiter,
    defaultLimits: dependencies.defaultLimits,
    signal,
    now: dependencies.clock.now(),
  });
  // Read alongside the admission; a refusal from here on leaves the admission to the exchange's end, as an upstream failure does.
  if (state.accountConfirmed) await state.accountConfirmed;
  const capped = applyOutputCap(codec, request, served.body, state.admission.outputTokensCap);
  const pin = lookup instanceof Promise ? await lookup : lookup;
  const routeTargets = routing.targetsOf(route.model);
  const cacheKeyed = withConversationCacheKey(capped.request, state.conversationKey);
  // One object of one shape for every request (no optional keys spread in): the attempts read it as it is.
  const result = await attemptTargets({
    inbound: codec,
    body: capped.body,
    request: cacheKeyed,
    decodeWarnings: served.warnings,
    warnings: capped.warnings,
    forwarded: state.forwarded,
    targets: targetsFor(routeTargets, pin),
    preferred: pin,
    policy: retryPolicyOf(route.replayAmbiguousFailures),
    signal,
    createdAt: Math.floor(state.startedAt / 1000),
    health: dependencies.health,
    now: dependencies.clock.now,
    sleep: dependencies.clock.sleep,
    frameTap,
    formatFrame: served.formatFrame,
    route: route.model,
    watcher: state.watcher,
    promptCache: route.promptCache,
    issuers: dependencies.issuers,
    replay: planReasoningReplay(cacheKeyed, dependencies.issuers),
  });
  state.attempt = result.attempt;
  if (!result.ok) throw result.error;
  if (routeAffinity.sticky) settleAffinity(state, dependencies, routeTargets, pin, result.attempt);
  return result.answer;
}
