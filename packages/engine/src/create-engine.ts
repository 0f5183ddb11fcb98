import { setTimeout as wait } from 'node:timers/promises';
import { GatewayError, type Codec, type Protocol, type Usage } from '@switchyard/core';
import { createUpstreamClient, defaultRetryPolicy, type UpstreamClient } from '@switchyard/upstream';
import type { AccountStore } from '@switchyard/accounts';
import { admitRequest, type Admission } from './admission/admit-request';
import { authorizeRoute } from './admission/authorize-route';
import { estimateInputTokens } from './admission/estimate-input-tokens';
import { authenticate, type Principal, type RequestHeaders } from './auth/authenticate';
import type { GatewayConfig } from './config/gateway-config';
import { createAttemptLog } from './generation/attempt-log';
import type { UpstreamTarget } from './generation/call-upstream';
import { generate } from './generation/generate';
import type { GenerationOutput } from './generation/generation-output';
import type { StreamObserver } from './generation/stream-observer';
import { createUpstreamEndpoint } from './generation/upstream-endpoint';
import { createMemoryLimiter } from './limits/create-memory-limiter';
import type { Limiter } from './limits/limiter';
import { createRouteTable, type Route } from './routing/create-route-table';
import { buildUsageRecord, type RecordFacts } from './usage/build-usage-record';
import { outcomeOf } from './usage/outcome-of';
import type { UsageRecord, UsageRecorder } from './usage/usage-record';

export type EngineOptions = {
  config: GatewayConfig;
  /** One codec per protocol the gateway speaks; the host passes them in (the engine imports none). */
  codecs: Partial<Record<Protocol, Codec>>;
  /** Keys, accounts and balances. */
  store: AccountStore;
  /** Per-key rate, token and concurrency limits. Default: in process memory. */
  limiter?: Limiter;
  /** Fire-and-forget sink for usage records; its failures are reported to `onRecorderError`. */
  recordUsage?: UsageRecorder;
  onRecorderError?: (error: unknown) => void;
  /** Where upstream keys are read from (`apiKeyEnv`). Default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  /** Waits between attempts (retry backoff, `Retry-After`); rejects when `signal` aborts. Default: a real timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The clock for key expiry, latency and the default limiter. Default `Date.now`. */
  now?: () => number;
};

/** One generation call as the transport hands it over. */
export type GenerationInput = {
  protocol: Protocol;
  body: unknown;
  principal: Principal;
  requestId: string;
  signal: AbortSignal;
  startedAt: number;
};

/** A request that ended before generation (auth, routing, body): recorded all the same. */
export type RefusalInput = {
  protocol: Protocol;
  requestId: string;
  startedAt: number;
  error: GatewayError;
  principal?: Principal;
};

export type Engine = ReturnType<typeof createEngine>;

/** The framework-free gateway: authentication, routing, admission, translation, upstream calls, usage. */
export function createEngine(options: EngineOptions) {
  const { config, store } = options;
  const routes = createRouteTable(config.routes);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number, signal: AbortSignal) => wait(ms, undefined, { signal }));
  const limiter = options.limiter ?? createMemoryLimiter({ now });
  const clients: UpstreamClient[] = [];
  const targets = new Map<string, UpstreamTarget>();
  for (const [name, upstream] of Object.entries(config.upstreams)) {
    const endpoint = createUpstreamEndpoint(upstream, options.environment ?? process.env);
    const client = createUpstreamClient({ ...upstream, headers: endpoint.headers });
    clients.push(client);
    targets.set(name, {
      name,
      codec: codecFor(options.codecs, upstream.protocol),
      client,
      path: endpoint.path,
      missingCredential: endpoint.missingCredential,
    });
  }
  const routeTargets = new Map(
    routes.routes.map(route => [
      route.model,
      route.targets.map(target => ({ upstream: targets.get(target.upstream)!, model: target.model })),
    ]),
  );

  const record = (entry: UsageRecord) => {
    if (!options.recordUsage) return;
    Promise.resolve()
      .then(() => options.recordUsage!(entry))
      .catch(error => options.onRecorderError?.(error));
  };

  /** Settles the stream's hold at its real usage (or an estimate from what was streamed) and records it. */
  const finishStream = async (
    facts: RecordFacts,
    admission: Admission,
    observer: StreamObserver,
    error: unknown,
  ) => {
    // An upstream that reported no counts (a Chat stream without include_usage) is billed on the estimate.
    const reported = observer.usage;
    const counted =
      reported !== undefined && (reported.inputTokens !== undefined || reported.outputTokens !== undefined);
    const usage = counted
      ? reported
      : estimatedUsage(admission.estimatedInputTokens, observer.outputCharacters);
    facts.log!.finishReason = observer.finishReason;
    facts.log!.usage = usage;
    const costMicros = await admission.finish(usage);
    const outcome = error ? 'client-aborted' : outcomeOf(observer.finishReason, observer.error);
    record(buildUsageRecord({ ...facts, status: 200, outcome, errorCode: observer.error?.code, costMicros }));
  };

  return {
    routes,
    authenticate: (protocol: Protocol, headers: RequestHeaders) =>
      authenticate({ protocol, headers, store, messages: config.messages, now: now() }),

    /** Runs one generation; throws `GatewayError` before the commit point, never after. */
    async generate(input: GenerationInput): Promise<GenerationOutput> {
      const inbound = codecFor(options.codecs, input.protocol);
      const facts: RecordFacts = { ...input, log: createAttemptLog(), status: 0, outcome: 'error' };
      let admission: Admission | undefined;
      try {
        const { value: request, warnings } = inbound.decodeRequest(
          input.body,
          input.principal.apiVersion === undefined ? undefined : { apiVersion: input.principal.apiVersion },
        );
        facts.model = request.model;
        facts.stream = request.stream;
        const route = routes.resolve(request.model, input.protocol);
        admission = await admitRequest({
          request,
          route,
          principal: input.principal,
          store,
          limiter,
          defaultLimits: config.limits.default,
          signal: input.signal,
        });
        const admitted = admission;
        const output = await generate({
          inbound,
          body: input.body,
          request,
          warnings,
          targets: routeTargets.get(route.model)!,
          policy: { ...defaultRetryPolicy, replayAmbiguous: route.replayAmbiguousFailures },
          signal: input.signal,
          log: facts.log!,
          createdAt: Math.floor(input.startedAt / 1000),
          sleep,
          onStreamEnd: (observer, error) => void finishStream(facts, admitted, observer, error),
        });
        facts.firstByteAt = Date.now();
        if (output.kind === 'json') {
          // Settling money and counting tokens need not delay the answer: they run while it is sent.
          void admitted
            .finish(facts.log!.usage)
            .then(costMicros =>
              record(
                buildUsageRecord({
                  ...facts,
                  status: 200,
                  outcome: outcomeOf(facts.log!.finishReason, undefined),
                  costMicros,
                }),
              ),
            )
            .catch(error => options.onRecorderError?.(error));
        }
        return output;
      } catch (error) {
        await admission?.finish(undefined);
        const failure = GatewayError.isInstance(error) ? error : undefined;
        const outcome = failure ? 'error' : 'client-aborted';
        record(
          buildUsageRecord({ ...facts, status: failure?.status ?? 499, outcome, errorCode: failure?.code }),
        );
        throw error;
      }
    },

    /**
     * An honest estimate of a request's input tokens (characters / 4, see `estimateInputTokens`),
     * for clients that budget context. Authenticated and routed like a generation; nothing is billed.
     */
    countTokens(input: Omit<GenerationInput, 'signal' | 'startedAt' | 'requestId'>): {
      input_tokens: number;
    } {
      const codec = codecFor(options.codecs, input.protocol);
      if (!codec.decodeTokenCountRequest) {
        throw new GatewayError({
          code: 'ENDPOINT_NOT_FOUND',
          message: 'This interface has no token-count endpoint.',
        });
      }
      const apiVersion = input.principal.apiVersion;
      const request = codec.decodeTokenCountRequest(
        input.body,
        apiVersion === undefined ? undefined : { apiVersion },
      );
      authorizeRoute(input.principal, routes.resolve(request.model, input.protocol));
      return { input_tokens: estimateInputTokens(request) };
    },

    /** Records a request refused before generation (bad key, unknown path, malformed body). */
    recordRefusal(input: RefusalInput) {
      record(
        buildUsageRecord({
          ...input,
          status: input.error.status,
          outcome: 'error',
          errorCode: input.error.code,
        }),
      );
    },

    /** The routes as the models list shows them, in config order. */
    listModels(): readonly Route[] {
      return routes.routes;
    },

    async close() {
      await Promise.all(clients.map(client => client.close()));
    },
  };
}

function codecFor(codecs: Partial<Record<Protocol, Codec>>, protocol: Protocol): Codec {
  const codec = codecs[protocol];
  if (!codec)
    throw new Error(`No codec was given for protocol '${protocol}' (pass it in EngineOptions.codecs).`);
  return codec;
}

/** Usage when the upstream never reported it: the input estimate and the streamed characters / 4. */
function estimatedUsage(inputTokens: number, outputCharacters: number): Usage {
  return {
    inputTokens,
    outputTokens: Math.ceil(outputCharacters / 4),
    cacheReadTokens: undefined,
    cacheWriteTokens: undefined,
    reasoningTokens: undefined,
    estimated: true,
  };
}
