import { GatewayError, type Codec, type Protocol } from '@switchyard/core';
import { createUpstreamClient, defaultRetryPolicy, type UpstreamClient } from '@switchyard/upstream';
import { authenticate, type Principal, type RequestHeaders } from './auth/authenticate';
import type { KeyStore } from './auth/key-store';
import type { GatewayConfig } from './config/gateway-config';
import type { UpstreamTarget } from './generation/call-upstream';
import { createAttemptLog, type AttemptLog } from './generation/attempt-log';
import { generate } from './generation/generate';
import type { GenerationOutput } from './generation/generation-output';
import { createUpstreamEndpoint } from './generation/upstream-endpoint';
import { createRouteTable, type Route } from './routing/create-route-table';
import { outcomeOf } from './usage/outcome-of';
import type { RequestOutcome, UsageRecord, UsageRecorder } from './usage/usage-record';

export type EngineOptions = {
  config: GatewayConfig;
  /** One codec per protocol the gateway speaks; the host passes them in (the engine imports none). */
  codecs: Partial<Record<Protocol, Codec>>;
  keyStore: KeyStore;
  /** Fire-and-forget sink for usage records; its failures are reported to `onRecorderError`. */
  recordUsage?: UsageRecorder;
  onRecorderError?: (error: unknown) => void;
  /** Where upstream keys are read from (`apiKeyEnv`). Default `process.env`. */
  environment?: NodeJS.ProcessEnv;
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
export type RefusalInput = { protocol: Protocol; requestId: string; startedAt: number; error: GatewayError; keyId?: string };

export type Engine = ReturnType<typeof createEngine>;

/** The framework-free gateway: authentication, routing, translation, upstream calls and usage records. */
export function createEngine(options: EngineOptions) {
  const { config, keyStore } = options;
  const routes = createRouteTable(config.routes);
  const clients = new Map<string, UpstreamClient>();
  const targets = new Map<string, UpstreamTarget>();
  for (const [name, upstream] of Object.entries(config.upstreams)) {
    const client = createUpstreamClient(upstream);
    const endpoint = createUpstreamEndpoint(upstream, options.environment ?? process.env);
    clients.set(name, client);
    targets.set(name, { name, codec: codecFor(options.codecs, upstream.protocol), client, ...endpoint });
  }
  const routeTargets = new Map(
    routes.routes.map(route => [route.model, route.targets.map(target => ({ upstream: targets.get(target.upstream)!, model: target.model }))]),
  );

  const record = (entry: UsageRecord) => {
    if (!options.recordUsage) return;
    Promise.resolve()
      .then(() => options.recordUsage!(entry))
      .catch(error => options.onRecorderError?.(error));
  };

  return {
    routes,
    authenticate: (protocol: Protocol, headers: RequestHeaders) =>
      authenticate({ protocol, headers, keyStore, messages: config.messages }),

    /** Runs one generation; throws `GatewayError` before the commit point, never after. */
    async generate(input: GenerationInput): Promise<GenerationOutput> {
      const log = createAttemptLog();
      const inbound = codecFor(options.codecs, input.protocol);
      let model: string | undefined;
      let stream = false;
      let firstByteAt: number | undefined;
      try {
        const { value: request, warnings } = inbound.decodeRequest(input.body);
        model = request.model;
        stream = request.stream;
        const route = routes.resolve(request.model, input.protocol);
        assertModelAllowed(input.principal, route);
        const output = await generate({
          inbound,
          request,
          warnings,
          targets: routeTargets.get(route.model)!,
          policy: { ...defaultRetryPolicy, replayAmbiguous: route.replayAmbiguousFailures },
          signal: input.signal,
          log,
          createdAt: Math.floor(input.startedAt / 1000),
          onStreamEnd: (observer, error) => {
            log.finishReason = observer.finishReason;
            log.usage = observer.usage;
            const outcome: RequestOutcome = error ? 'client-aborted' : outcomeOf(observer.finishReason, observer.error);
            record(usageRecord(input, log, { model, stream, status: 200, outcome, errorCode: observer.error?.code, firstByteAt }));
          },
        });
        firstByteAt = Date.now();
        if (output.kind === 'json') {
          const outcome = outcomeOf(log.finishReason, undefined);
          record(usageRecord(input, log, { model, stream, status: 200, outcome, errorCode: undefined, firstByteAt }));
        }
        return output;
      } catch (error) {
        const failure = GatewayError.isInstance(error) ? error : undefined;
        record(
          usageRecord(input, log, {
            model,
            stream,
            status: failure?.status ?? 499,
            outcome: failure ? 'error' : 'client-aborted',
            errorCode: failure?.code,
            firstByteAt: undefined,
          }),
        );
        throw error;
      }
    },

    /** Records a request refused before generation (bad key, unknown path, malformed body). */
    recordRefusal(input: RefusalInput) {
      record({
        ...emptyRecord(input.protocol, input.requestId, input.startedAt),
        keyId: input.keyId,
        status: input.error.status,
        outcome: 'error',
        errorCode: input.error.code,
      });
    },

    /** The routes as the models list shows them, in config order. */
    listModels(): readonly Route[] {
      return routes.routes;
    },

    async close() {
      await Promise.all([...clients.values()].map(client => client.close()));
    },
  };
}

function codecFor(codecs: Partial<Record<Protocol, Codec>>, protocol: Protocol): Codec {
  const codec = codecs[protocol];
  if (!codec) throw new Error(`No codec was given for protocol '${protocol}' (pass it in EngineOptions.codecs).`);
  return codec;
}

function assertModelAllowed(principal: Principal, route: Route): void {
  const allowed = principal.key.allowedModels;
  if (allowed && !allowed.includes(route.model)) {
    throw new GatewayError({
      code: 'MODEL_NOT_ALLOWED',
      message: `This API key may not use the model '${route.model}'.`,
      param: 'model',
    });
  }
}

function emptyRecord(protocol: Protocol, requestId: string, startedAt: number): UsageRecord {
  return {
    requestId,
    startedAt,
    keyId: undefined,
    model: undefined,
    protocol,
    upstream: undefined,
    upstreamProtocol: undefined,
    upstreamRequestId: undefined,
    stream: false,
    status: 0,
    outcome: 'error',
    errorCode: undefined,
    finishReason: undefined,
    usage: undefined,
    attempts: 0,
    latencyMs: Date.now() - startedAt,
    timeToFirstByteMs: undefined,
  };
}

function usageRecord(
  input: GenerationInput,
  log: AttemptLog,
  result: {
    model: string | undefined;
    stream: boolean;
    status: number;
    outcome: RequestOutcome;
    errorCode: string | undefined;
    firstByteAt: number | undefined;
  },
): UsageRecord {
  return {
    ...emptyRecord(input.protocol, input.requestId, input.startedAt),
    keyId: input.principal.key.id,
    model: result.model,
    upstream: log.target?.name,
    upstreamProtocol: log.target?.codec.protocol,
    upstreamRequestId: log.upstreamRequestId,
    stream: result.stream,
    status: result.status,
    outcome: result.outcome,
    errorCode: result.errorCode,
    finishReason: log.finishReason,
    usage: log.usage,
    attempts: log.attempts,
    timeToFirstByteMs: result.firstByteAt === undefined ? undefined : result.firstByteAt - input.startedAt,
  };
}

