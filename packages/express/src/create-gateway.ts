import {
  createMemoryAccountStore,
  type AccountStore,
  type AdminService,
  type ConsoleRoute,
  type ConsoleUpstreams,
  type KeyLimits,
} from '@signalbox/accounts';
import type { Codec } from '@signalbox/core';
import {
  combineObservers,
  createEngine,
  parseGatewayConfig,
  type Endpoint,
  type Engine,
  type EngineObserver,
  type EngineOptions,
  type GatewayConfig,
  type GatewayConfigInput,
  type Limiter,
  type UsageRecorder,
} from '@signalbox/engine';
import type { Server } from 'node:http';
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { createAccessLogMiddleware } from './access-log/create-access-log-middleware';
import { createAttemptLogObserver } from './access-log/create-attempt-log-observer';
import { createHealthLogObserver } from './access-log/create-health-log-observer';
import { createAdminRouter } from './admin/create-admin-router';
import { describeConsoleRoutes } from './admin/describe-console-routes';
import { createAuthMiddleware } from './auth/create-auth-middleware';
import { createStoredResponseHandler, expressPathOf } from './conversations/create-stored-response-handler';
import { createBodyMiddleware } from './body/create-body-middleware';
import { createCompactionHandler } from './compaction/create-compaction-handler';
import { createTokenCountHandler } from './count-tokens/create-token-count-handler';
import { createClientErrorListener } from './errors/create-client-error-listener';
import { createErrorHandler } from './errors/create-error-handler';
import { causeLogFields } from './errors/failure-log-fields';
import { createNotFoundHandler, createPathClaim } from './errors/create-not-found-handler';
import type { GatewayLogger } from './gateway-logger';
import { createGenerationHandler } from './generation/create-generation-handler';
import { createModelsHandler } from './models/create-models-handler';
import { createOpenAPIHandler } from './openapi/create-openapi-handler';
import { createRequestIdMiddleware } from './request-id/create-request-id-middleware';
import { createEndpointDispatcher } from './routing/create-endpoint-dispatcher';
import { asksForWebSocket, createUpgradeRefusalHandler } from './upgrade/create-upgrade-refusal-handler';
import { attachWebSocketUpgrade, type WebSocketAttachment } from './web-socket/attach-web-socket-upgrade';
import { logWebSocketResponses } from './web-socket/log-web-socket-responses';
import type { WebSocketStats } from './web-socket/track-web-socket-connections';

export type GatewayOptions = {
  /** The gateway config (validated here; a bad one throws `ConfigError` naming each bad path). */
  config: GatewayConfigInput | GatewayConfig;
  /** The protocols to speak, one codec each; every codec brings its own endpoints (`codec.descriptor`). */
  codecs: readonly Codec[];
  /** The upstream kinds `upstreams.X.kind` may name (`EngineOptions.kinds`): a cloud's URL, auth and framing. Default: none. */
  kinds?: EngineOptions['kinds'];
  /** Keys, accounts and balances. Default: in process memory (lost on restart; a warning is logged). */
  store?: AccountStore;
  /** Per-key limits. Default: in process memory. */
  limiter?: Limiter;
  /** Receives one record per refused or generated request. Must not throw or block. */
  recordUsage?: UsageRecorder;
  /** Access lines at `info`, refusals and failed upstream attempts at `debug`, 5xx at `error`. Default: none. */
  logger?: GatewayLogger;
  /**
   * Where access lines go instead of `logger`. Their fields are the gateway's own, every client value
   * in them scrubbed, so a logger that skips its redaction pass (cheaper per request) suits them.
   */
  accessLogger?: GatewayLogger;
  /** Where upstream keys are read from. Default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  /**
   * The gateway's time, whole (`EngineOptions.clock`): what it reads, the waits between upstream
   * attempts, and its timers (deadlines, the drain's grace, queue waits, ledger commits). Every
   * request's id and arrival are stamped on it, and access lines measure on it. Default `systemClock`.
   */
  clock?: EngineOptions['clock'];
  /** Opens each configured upstream's client (tests pass scripted ones). Default: an undici pool. */
  upstreamClient?: EngineOptions['upstreamClient'];
  /** The secret compaction items are sealed under; keep it across restarts. Default: random per process. */
  conversationSecret?: EngineOptions['conversationSecret'];
  /** How long after its first request finished a ledger batch is committed (`EngineOptions.usageCommitDelayMs`; 0: the next turn). Default 2 ms. */
  usageCommitDelayMs?: EngineOptions['usageCommitDelayMs'];
  /** The most finished requests waiting for the ledger before settling waits for a commit (`EngineOptions.maxQueuedUsageCommits`). Default 1 000. */
  maxQueuedUsageCommits?: EngineOptions['maxQueuedUsageCommits'];
  /** Watches requests, upstream attempts and ledger batches (metrics, traces): `EngineOptions.observer`. Default: none. */
  observer?: EngineOptions['observer'];
  /** Secrets of the host's with no shape (a database password), scrubbed like the upstream keys: `EngineOptions.secretValues`. */
  secretValues?: EngineOptions['secretValues'];
  /** Where instances share upstream health (a Redis one from `@signalbox/limiter-redis`): `EngineOptions.healthStore`. Default: none. */
  healthStore?: EngineOptions['healthStore'];
  /** Where conversations' credentials are pinned (a Redis one from `@signalbox/limiter-redis`): `EngineOptions.affinityStore`. Default: the engine's memory. */
  affinityStore?: EngineOptions['affinityStore'];
};

/**
 * The composed Router and its pre-bound extras: the engine, the error handler and the `clientError`
 * listener for a host that composes middlewares itself, and the admin router factory.
 */
export type Gateway = Router & {
  engine: Engine;
  store: AccountStore;
  errorHandler: ErrorRequestHandler;
  /** A JSON 404 in the caller's envelope for any path, to mount last in a host that wants one. */
  notFoundHandler: RequestHandler;
  clientErrorListener: ReturnType<typeof createClientErrorListener>;
  createAdminRouter(admin: AdminService): Router;
  /** The routes as consoles list them (pass as `createAdminService({ routes })`). */
  consoleRoutes(): ConsoleRoute[];
  /** The upstreams' health and the enabling of a credential, for consoles (pass as `createAdminService({ upstreams })`). */
  consoleUpstreams: ConsoleUpstreams;
  /** The config's `limits.default`, the ceiling of accounts' own keys (pass as `createAdminService({ defaultKeyLimits })`). */
  defaultKeyLimits: KeyLimits;
  /**
   * Serves Responses' WebSocket mode (`GET /v1/responses` upgraded) on the host's server, beside its
   * other `upgrade` listeners; `mountPath` is where the host mounted this Router (`/llm`). Without
   * it, an upgrade there is answered 426.
   */
  attachUpgrade(server: Server, options?: { mountPath?: string }): WebSocketAttachment;
  /** The WebSocket connections of every attachment: open now, closed so far, the responses those served (metrics). */
  webSocketStats(): WebSocketStats;
  /** Ends every WebSocket connection (error frame and close frame, once its response ended), then closes the engine. */
  close(): Promise<void>;
};

/**
 * Every middleware composed into one Router: per endpoint of each codec, request id → auth → JSON
 * body → generation (or token count, or models list; stored responses need no body); a 426 for a WebSocket upgrade on a generation
 * path (the gateway streams over HTTP); `GET /openapi.json`, the OpenAPI document of what it
 * mounted; 404s with hints for unknown `/v1` paths; one error handler. It claims only its own
 * paths: mounted at `/`, every other path goes on to the host's routes.
 *
 * @throws ConfigError when the config does not validate or names a protocol no codec speaks.
 * @example app.use(createGateway({ config, codecs: [openAIResponsesCodec, anthropicMessagesCodec] }))
 */
export function createGateway(options: GatewayOptions): Gateway {
  const config = parseGatewayConfig(options.config);
  const { logger } = options;
  const store = options.store ?? createMemoryAccountStore();
  if (!options.store) logger?.warn({}, 'no store given: keys, accounts and balances live in process memory and are lost on restart');
  const engine = createEngine({
    config,
    codecs: options.codecs,
    ...(options.kinds && { kinds: options.kinds }),
    store,
    ...(options.limiter && { limiter: options.limiter }),
    ...(options.recordUsage && { recordUsage: options.recordUsage }),
    ...(options.environment && { environment: options.environment }),
    ...(options.clock && { clock: options.clock }),
    ...(options.upstreamClient && { upstreamClient: options.upstreamClient }),
    ...(options.conversationSecret !== undefined && { conversationSecret: options.conversationSecret }),
    ...(options.usageCommitDelayMs !== undefined && { usageCommitDelayMs: options.usageCommitDelayMs }),
    ...(options.maxQueuedUsageCommits !== undefined && { maxQueuedUsageCommits: options.maxQueuedUsageCommits }),
    ...(options.secretValues && { secretValues: options.secretValues }),
    ...(options.healthStore && { healthStore: options.healthStore }),
    ...(options.affinityStore && { affinityStore: options.affinityStore }),
    ...observerOf(options.observer, logger),
    onObserverError: error => logger?.error({ cause: causeLogFields(error) }, 'observer failed (the request went on)'),
    onRecorderError: error => logger?.error({ cause: causeLogFields(error) }, 'usage ledger commit or recorder failed'),
    onResponseStoreError: error => logger?.error({ cause: causeLogFields(error) }, 'response store failed: the answer was sent but not kept'),
  });
  const errorHandler = createErrorHandler({ engine, ...(logger && { logger }) });
  const attachments: WebSocketAttachment[] = [];
  const router = Router();
  const accessLogger = options.accessLogger ?? logger;
  const accessLog = accessLogger ? [createAccessLogMiddleware({ logger: accessLogger, secrets: engine.secrets, now: engine.clock.now })] : [];
  // Fixed paths are found in a Map (one lookup a request); paths with an `{id}` stay Express routes.
  const dispatcher = createEndpointDispatcher();
  router.use(dispatcher.middleware);
  for (const endpoint of engine.registry.endpoints) {
    const handlers = [...accessLog, ...endpointHandlers(engine, endpoint, config)];
    const path = expressPathOf(endpoint.path);
    if (path === endpoint.path) dispatcher.add(endpoint.method, path, handlers);
    else if (endpoint.method === 'GET') router.get(path, ...handlers);
    else if (endpoint.method === 'DELETE') router.delete(path, ...handlers);
    else router.post(path, ...handlers);
    if (endpoint.kind === 'generation') dispatcher.add('GET', endpoint.path, upgradeRefusal(engine, endpoint, accessLog));
  }
  dispatcher.add('GET', '/openapi.json', [...accessLog, createOpenAPIHandler({ engine })]);
  // Past the endpoints, the Router keeps only the paths it claims; any other leaves it for the host's routes.
  const claims = createPathClaim(engine);
  router.use((request, _response, next) => next(claims(request.path) ? undefined : 'router'), ...accessLog, createNotFoundHandler({ engine }));
  router.use(errorHandler);
  return Object.assign(router, {
    engine,
    store,
    errorHandler,
    notFoundHandler: withAccessLog(accessLog, createNotFoundHandler({ engine, everyPath: true })),
    clientErrorListener: createClientErrorListener({ engine }),
    createAdminRouter: (admin: AdminService) => createAdminRouter({ admin, engine }),
    consoleRoutes: () => describeConsoleRoutes(engine),
    consoleUpstreams: { list: () => engine.upstreamHealth(), enable: (upstream: string, credential: string) => engine.enableCredential(upstream, credential) },
    defaultKeyLimits: config.limits.default,
    attachUpgrade(server: Server, upgradeOptions: { mountPath?: string } = {}) {
      const logging = logWebSocketResponses(engine, logger, accessLogger);
      const attachment = attachWebSocketUpgrade(server, { engine, config, mountPath: upgradeOptions.mountPath ?? '', ...logging });
      attachments.push(attachment);
      return attachment;
    },
    webSocketStats: () => sumStats(attachments.map(attachment => attachment.stats())),
    close() {
      for (const attachment of attachments) attachment.close();
      return engine.close();
    },
  });
}

/**
 * The host's observer, with the upstream health lines when there is a logger and the failed-attempt
 * lines when it writes `debug`: at `info` the gateway's own observer watches no request, so logging
 * adds no work per request there.
 */
function observerOf(host: EngineObserver | undefined, logger: GatewayLogger | undefined): { observer?: EngineObserver } {
  if (!logger) return host ? { observer: host } : {};
  const debugging = logger.debug !== undefined && logger.isLevelEnabled?.('debug') !== false;
  const own = [createHealthLogObserver(logger), ...(debugging ? [createAttemptLogObserver(logger)] : [])];
  return { observer: combineObservers(...(host ? [host] : []), ...own) };
}

/** A handler that first opens the access line (when there is a logger), so the host's last 404 is logged too. */
function withAccessLog(accessLog: readonly RequestHandler[], handler: RequestHandler): RequestHandler {
  const [log] = accessLog;
  if (!log) return handler;
  return function loggedHandler(request, response, next) {
    return log(request, response, () => handler(request, response, next));
  };
}

/**
 * A WebSocket upgrade on a generation path is answered 426 in the endpoint's envelope; any other
 * `GET` there goes on (`next('route')`) to the 404 that names the right method.
 */
function upgradeRefusal(engine: Engine, endpoint: Endpoint, accessLog: readonly RequestHandler[]): RequestHandler[] {
  const onlyWebSocketUpgrades: RequestHandler = (request, _response, next) => next(asksForWebSocket(request) ? undefined : 'route');
  return [
    onlyWebSocketUpgrades,
    ...accessLog,
    createRequestIdMiddleware({ engine, protocol: endpoint.codec.protocol }),
    createUpgradeRefusalHandler({ path: endpoint.path }),
  ];
}

function endpointHandlers(engine: Engine, endpoint: Endpoint, config: GatewayConfig): RequestHandler[] {
  if (endpoint.kind === 'models') return [createModelsHandler({ engine, ...(!endpoint.shared && { codec: endpoint.codec }) })];
  const authenticated = [createRequestIdMiddleware({ engine, protocol: endpoint.codec.protocol, endpoint }), createAuthMiddleware()];
  if (endpoint.kind === 'stored-response' || endpoint.kind === 'stored-input-items') {
    return [...authenticated, createStoredResponseHandler({ engine, endpoint })];
  }
  const opening = [
    ...authenticated,
    createBodyMiddleware({ limitBytes: config.bodyLimitBytes, timeoutMs: config.bodyTimeoutMs }),
  ];
  if (endpoint.kind === 'token-count') return [...opening, createTokenCountHandler({ engine })];
  if (endpoint.kind === 'compaction') return [...opening, createCompactionHandler()];
  return [...opening, createGenerationHandler({ keepAliveMs: config.keepAliveMs })];
}

function sumStats(all: readonly WebSocketStats[]): WebSocketStats {
  const sum = { open: 0, closed: 0, closedResponses: 0 };
  for (const stats of all) {
    sum.open += stats.open;
    sum.closed += stats.closed;
    sum.closedResponses += stats.closedResponses;
  }
  return sum;
}
