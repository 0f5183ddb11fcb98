import {
  ClientAbortedError,
  GatewayError,
  type Codec,
  type GenerationRequest,
  type ModelInfo,
  type TranslationWarning,
} from '@signalbox/core';
import { defaultRetryPolicy } from '@signalbox/upstream';
import type { AccountStore, KeyLimits } from '@signalbox/accounts';
import { admitRequest } from '../admission/admit-request';
import { applyOutputCap } from '../admission/apply-output-cap';
import { authorizeRoute, mayUseRoute } from '../admission/authorize-route';
import { estimateInputTokens } from '../admission/estimate-input-tokens';
import {
  authenticate,
  type ClientAuthPolicy,
  type KeyHeaderElsewhere,
  type Principal,
  type RequestHeaders,
} from '../auth/authenticate';
import type { ConversationDependencies } from '../conversations/conversation-dependencies';
import { createExpansionBudget } from '../conversations/expansion-budget';
import { openConversation } from '../conversations/open-conversation';
import { storedResponsesFor } from '../conversations/stored-responses';
import { attemptTargets } from '../generation/attempt-targets';
import { readForwardedParts } from '../generation/forwarded-request-parts';
import type { FrameTap } from '../generation/frame-tap';
import type { GenerationOutput, UpstreamAnswer } from '../generation/generation-output';
import type { UpstreamTarget } from '../generation/upstream-target';
import type { Interruption, Interruptions } from '../interruption/create-interruptions';
import { eitherSignal } from '../interruption/either-signal';
import { interruptionOf } from '../interruption/interruption-errors';
import type { Limiter } from '../limits/limiter';
import type { EngineObserver } from '../observation/engine-observer';
import type { RouteTable } from '../routing/create-route-table';
import { compactConversation } from '../conversations/compaction/compact-conversation';
import { compactionTurnOutput } from '../conversations/compaction/compaction-turn-output';
import type { CompactionSealer } from '../conversations/compaction/create-compaction-sealer';
import { openCompactionItems } from '../conversations/compaction/open-compaction-items';
import type { Exchange } from './exchange';
import { endingOfFailure, endingOfJSONAnswer, endingOfStream } from './exchange-ending';
import type { ExchangeState } from './exchange-state';
import { settleExchange, type Settlement } from './settle-exchange';

/** What every exchange of one engine shares. */
export type ExchangeDependencies = {
  routes: RouteTable;
  targetsOf(model: string): readonly { upstream: UpstreamTarget; model: string }[];
  store: AccountStore;
  limiter: Limiter;
  defaultLimits: KeyLimits;
  authPolicy(codec: Codec): ClientAuthPolicy;
  keyHeadersElsewhere: readonly KeyHeaderElsewhere[];
  /** The config's `forwardClientHeaders`: client headers passed on to upstreams of the same protocol. */
  forwardClientHeaders: readonly string[];
  models: readonly ModelInfo[];
  settlement: Settlement;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Generations in flight: ended by the engine's drain at shutdown or by their route's deadline. */
  interruptions: Interruptions;
  /** Stored conversations: the store, its retention, and where a failed save is reported. */
  conversations: ConversationDependencies;
  /** Seals and opens the summaries of compaction items, per account. */
  compactionSealer: CompactionSealer;
  /** The host's observer (guarded: it cannot throw), when it watches exchanges. */
  observer?: EngineObserver;
};

export function openExchange(
  codec: Codec,
  identity: { requestId: string; startedAt: number; headers?: RequestHeaders },
  dependencies: ExchangeDependencies,
): Exchange {
  const state: ExchangeState = { ...identity, protocol: codec.protocol, decodeOptions: {}, settled: false };
  const { settlement } = dependencies;
  /** Starts following the exchange for the host's observer, once, when its generation or refusal begins. */
  const watch = () => {
    state.serving = true;
    if (state.watcher || !dependencies.observer?.watchExchange) return;
    state.watcher = dependencies.observer.watchExchange({
      requestId: state.requestId,
      protocol: state.protocol,
      startedAt: state.startedAt,
      headers: state.headers,
    });
  };
  let interruption: Interruption | undefined;
  const settle = (ending: Parameters<typeof settleExchange>[1]) =>
    settleExchange(state, ending, settlement)
      .catch(settlement.onError)
      .finally(() => interruption?.release());
  const principal = (): Principal => {
    if (state.principal) return state.principal;
    throw new GatewayError({ code: 'INTERNAL_ERROR', message: 'The request was not authenticated (mount the auth middleware first).' });
  };

  /** Hands an answer to the transport; its settlement follows the JSON send or the stream's end. */
  const deliver = (answer: UpstreamAnswer): GenerationOutput => {
    state.firstByteAt = settlement.now();
    state.watcher?.responseStarted?.(answer.kind);
    if (answer.kind === 'json') {
      // Settling money and counting tokens need not delay the answer: they run while it is sent.
      void settle(endingOfJSONAnswer(answer));
      return { kind: 'json', body: answer.body, headers: answer.headers };
    }
    state.abandonAnswer = answer.abandon;
    const estimatedInputTokens = state.admission?.estimatedInputTokens ?? 0;
    return {
      kind: 'stream',
      headers: answer.headers,
      async pipe(sink) {
        state.abandonAnswer = undefined;
        const outcome = await answer.pipe(sink);
        void settle(endingOfStream(outcome, estimatedInputTokens));
        return outcome;
      },
    };
  };

  /**
   * Runs one generation (or compaction) from its start: watched for the client leaving, the route's
   * deadline and shutdown; any failure is settled and rethrown as the error the client gets.
   */
  const run = async <Output>(clientSignal: AbortSignal, work: (signal: AbortSignal) => Promise<Output>): Promise<Output> => {
    watch();
    try {
      interruption = dependencies.interruptions.watch(state.startedAt);
      // Everything below stops when the client leaves or the gateway ends the request itself.
      return await work(eitherSignal(clientSignal, interruption.signal));
    } catch (error) {
      // A client that left is told apart explicitly; a request the gateway ended (shutdown, deadline)
      // gets the error it was ended with; anything else unexpected is an internal error.
      const interrupted = clientSignal.aborted || !interruption ? undefined : interruptionOf(interruption.signal);
      const failure = interrupted ?? (ClientAbortedError.isInstance(error) ? error : GatewayError.from(error));
      await settle(endingOfFailure(failure));
      throw failure;
    }
  };

  /** Routes, admits and sends one request to the route's targets; the answer is not yet delivered. */
  const serve = async (
    request: GenerationRequest,
    body: unknown,
    warnings: readonly TranslationWarning[],
    signal: AbortSignal,
    frameTap?: FrameTap,
  ) => {
    state.model = request.model;
    state.stream = request.stream;
    const route = dependencies.routes.resolve(request.model, codec.protocol);
    state.route = route.model;
    interruption!.setDeadline(route.deadlineMs);
    state.admission = await admitRequest({
      request,
      route,
      principal: principal(),
      store: dependencies.store,
      limiter: dependencies.limiter,
      defaultLimits: dependencies.defaultLimits,
      signal,
      now: settlement.now(),
    });
    const capped = applyOutputCap(codec, request, body, state.admission.outputTokensCap);
    const result = await attemptTargets({
      inbound: codec,
      body: capped.body,
      request: capped.request,
      warnings: [...warnings, ...capped.warnings],
      forwarded: state.forwarded,
      targets: dependencies.targetsOf(route.model),
      policy: { ...defaultRetryPolicy, replayAmbiguous: route.replayAmbiguousFailures },
      signal,
      createdAt: Math.floor(state.startedAt / 1000),
      sleep: dependencies.sleep,
      ...(frameTap && { frameTap }),
      route: route.model,
      ...(state.watcher && { watcher: state.watcher }),
    });
    state.attempt = result.attempt;
    if (!result.ok) throw result.error;
    return result.answer;
  };

  /**
   * The body with the stored state it names (previous response, item references) made items, then
   * its sealed compaction items opened into their summaries, before anything else reads it. All of
   * it shares one expansion budget, so a refusal (413) comes before any answer is built or sent.
   */
  const openBody = async (body: unknown) => {
    const budget = createExpansionBudget(dependencies.conversations.retention.maxExpansionBytes);
    const conversation = await openConversation(codec, body, principal(), dependencies.conversations, budget);
    const opened = openCompactionItems(codec, conversation.body, principal().account.id, dependencies.compactionSealer, budget);
    return { conversation, opened };
  };

  /** What a compaction needs of this exchange: its generation, its settlement, the caller's account. */
  const compaction = {
    serve,
    settle: (answer: Extract<UpstreamAnswer, { kind: 'json' }>) => {
      state.firstByteAt = settlement.now();
      state.watcher?.responseStarted?.('json');
      void settle(endingOfJSONAnswer(answer));
    },
    accountId: () => principal().account.id,
    sealer: dependencies.compactionSealer,
    createdAt: Math.floor(state.startedAt / 1000),
  };

  return {
    requestId: identity.requestId,
    protocol: codec.protocol,
    codec,
    get principal() {
      return state.principal;
    },
    async authenticate(headers, query) {
      const authenticated = await authenticate({
        descriptor: codec.descriptor,
        headers,
        store: dependencies.store,
        policy: dependencies.authPolicy(codec),
        now: settlement.now(),
        keyHeadersElsewhere: dependencies.keyHeadersElsewhere,
      });
      state.principal = authenticated.principal;
      state.decodeOptions = authenticated.decodeOptions;
      state.forwarded = readForwardedParts(codec.descriptor, headers, query, dependencies.forwardClientHeaders);
      return authenticated.principal;
    },

    generate(clientBody, clientSignal) {
      return run(clientSignal, async signal => {
        const { conversation, opened } = await openBody(clientBody);
        const { value: request, warnings } = codec.decodeRequest(opened.body, state.decodeOptions);
        if (opened.triggered && codec.compaction) {
          const compacted = await compactConversation({ conversation: request, keptItems: [] }, warnings, signal, compaction);
          return compactionTurnOutput(codec.compaction, compacted.compaction, request, compacted.headers);
        }
        const answer = await serve(request, opened.body, warnings, signal, conversation.tap);
        // Kept before the client has the answer: an agent's next request may name it at once.
        if (answer.kind === 'json') await conversation.keepAnswer(answer.body);
        return deliver(answer);
      });
    },

    compact(body, clientSignal) {
      return run(clientSignal, async signal => {
        if (!codec.compaction) throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: 'This interface has no compaction endpoint.' });
        // A compaction may name its conversation by `previous_response_id` too; nothing of it is kept.
        const { opened } = await openBody(body);
        const { value, warnings } = codec.compaction.decodeCompactionRequest(opened.body);
        const compacted = await compactConversation(value, warnings, signal, compaction);
        return codec.compaction.encodeCompactedResponse(compacted.compaction);
      });
    },

    countTokens(body) {
      if (!codec.decodeTokenCountRequest || !codec.encodeTokenCount) {
        throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: 'This interface has no token-count endpoint.' });
      }
      const caller = principal();
      const request = codec.decodeTokenCountRequest(body, state.decodeOptions);
      authorizeRoute(caller, dependencies.routes.resolve(request.model, codec.protocol));
      return codec.encodeTokenCount(estimateInputTokens(request));
    },

    listModels() {
      const caller = principal();
      const allowed = new Set(dependencies.routes.routes.filter(route => mayUseRoute(caller, route)).map(route => route.model));
      return codec.encodeModelList(dependencies.models.filter(model => allowed.has(model.id)));
    },

    storedResponses() {
      return storedResponsesFor(codec, principal(), dependencies.conversations);
    },

    settledRecord() {
      if (state.record) return Promise.resolve(state.record);
      if (!state.serving) return undefined;
      return new Promise(resolve => {
        const earlier = state.onRecord;
        state.onRecord = record => {
          earlier?.(record);
          resolve(record);
        };
      });
    },

    refuse(error) {
      if (state.settled) return;
      watch();
      void settle(endingOfFailure(error));
    },
  };
}
