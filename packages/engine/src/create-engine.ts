import { randomBytes } from 'node:crypto';
import {
  createId,
  createSecretRecogniser,
  type Codec,
  type DecodeOptions,
  type JSONObject,
  type LearningSecretRecogniser,
  type Protocol,
  type SecretRecogniser,
} from '@signalbox/core';
import { createUpstreamClient, type UpstreamClientStats } from '@signalbox/upstream';
import { countTokens, type TokenCountAnswer } from './admission/count-tokens';
import { createMemoryAffinityStore } from './affinity/create-memory-affinity-store';
import { authPolicies, keyHeadersOf } from './auth/auth-policies';
import type { Principal } from './auth/authenticate';
import type { Clock } from './clock/clock';
import { systemClock } from './clock/system-clock';
import { checkConfigKinds } from './config/check-config-kinds';
import type { GatewayConfig } from './config/gateway-config';
import { checkConfigProtocols } from './config/check-config-protocols';
import { createCompactionSealer } from './conversations/compaction/create-compaction-sealer';
import { storedResponsesFor, type StoredResponses } from './conversations/stored-responses';
import type { Exchange, RequestStamp } from './exchange/exchange';
import type { ExchangeDependencies } from './exchange/exchange-dependencies';
import { openExchange, type ExchangeOpening } from './exchange/open-exchange';
import { createInterruptions } from './interruption/create-interruptions';
import { createMemoryLimiter } from './limits/create-memory-limiter';
import type { EngineObserver } from './observation/engine-observer';
import { guardObserver } from './observation/guard-observer';
import { createReasoningIssuers } from './reasoning/create-reasoning-issuers';
import { createProtocolRegistry, type ProtocolRegistry } from './protocols/create-protocol-registry';
import type { Route } from './routing/create-route-table';
import { createLiveRouting, type LiveRouting } from './routing/create-live-routing';
import { createUpstreamHealth, type UpstreamHealth } from './upstreams/create-upstream-health';
import type { CredentialPool } from './upstreams/credential-pool';
import { upstreamStatsOf } from './upstreams/open-upstreams';
import type { CredentialHealthReport, UpstreamHealthReport } from './upstreams/report-upstream-health';
import { commitScheduleOf, createUsageWriter, USAGE_COMMIT_DELAY_MS, type UsageWriter } from './usage/create-usage-writer';
import type { UsageRecord } from './usage/usage-record';
import type { EngineOptions } from './engine-options';

export type Engine = {
  readonly registry: ProtocolRegistry;
  /** The current routes in config order. */
  readonly routes: readonly Route[];
  /** The current config: the one it started with, or the last one `applyConfig` made current. */
  readonly config: GatewayConfig;
  /**
   * Makes a changed config's routes, upstreams and prices current for requests that begin from now
   * on (a request already routed keeps the ones it began with); its other sections are read at start
   * only. Upstreams whose config is unchanged keep their connections and health; removed or changed
   * ones close once their last attempt is done (`closed`). Throws `ConfigError` and changes nothing
   * when the config names a protocol, interface or kind the gateway lacks.
   */
  applyConfig(config: GatewayConfig): { closed: Promise<void> };
  /** The engine's clock (`EngineOptions.clock`), for a transport that measures on the same time. */
  readonly clock: Clock;
  /**
   * Stamps a request the gateway answers but neither bills nor records (the admin API, metrics, a
   * path it does not claim): a fresh request id and its arrival on the engine's clock.
   */
  openRequest(): RequestStamp;
  /**
   * Starts one client request on the interface of `protocol`, stamped like `openRequest`; everything
   * billed or recorded about it goes through the exchange. `headers` are the client's, for the
   * observer (a trace context); `mountPath` is where the transport mounted the gateway (`/llm`),
   * which the paths named in the request's refusals start with.
   */
  openExchange(opening: ExchangeOpening & { protocol: Protocol }): Exchange;
  /** `GET /v1/models`: the routes the caller's key may use, in config order, in `codec`'s list shape. Nothing is billed. */
  listModels(principal: Principal, codec: Codec): JSONObject;
  /**
   * A token-count endpoint: the input tokens of `body`, decoded as the caller's headers say
   * (`exchange.decodeOptions`), in `codec`'s answer shape: as the route's cloud counts them
   * (Bedrock, Vertex AI), else the documented estimate, marked as one in its headers. Nothing is billed.
   */
  countTokens(principal: Principal, codec: Codec, body: unknown, options?: { decodeOptions?: DecodeOptions; signal?: AbortSignal }): Promise<TokenCountAnswer>;
  /** The caller's stored responses (read, delete, list input items), in `codec`'s shapes. Nothing is billed. */
  storedResponses(principal: Principal, codec: Codec): StoredResponses;
  /**
   * For shutdown: refuses new generations with 503 `SHUTTING_DOWN`, lets open ones run for up to
   * `graceMs`, then ends the rest (a stream with its protocol's terminal error event), and resolves
   * once every one is settled and recorded as `interrupted` and the usage writer's queue is
   * committed to the ledger.
   */
  drain(graceMs: number): Promise<void>;
  /**
   * How busy each upstream's connections are now, by config name, for metrics; an upstream whose
   * client cannot tell (a scripted one in tests) is left out.
   */
  upstreamStats(): Record<string, UpstreamClientStats>;
  /**
   * Each upstream and its credentials by name, in config order: state (healthy, cooling down until
   * a time, circuit open or half-open, disabled with a reason), requests in flight, last error code.
   * Never a key.
   */
  upstreamHealth(): UpstreamHealthReport[];
  /**
   * Puts a credential back in service (an operator's action, shared with the other instances): no
   * longer taken out, cooling down or behind an open circuit (its own or its upstream's). Its report, or `undefined` for an
   * unknown upstream or credential; a credential whose key variable is unset stays disabled.
   */
  enableCredential(upstream: string, credential: string): CredentialHealthReport | undefined;
  /** Commits what the usage writer still holds, then releases the upstream connection pools. */
  close(): Promise<void>;
  /**
   * Recognises every secret the gateway issues or holds: the shapes of `SECRET_SHAPES`, this
   * engine's upstream keys and the host's `secretValues`. Logs, error bodies and usage records
   * pass client and upstream text through it.
   */
  readonly secrets: SecretRecogniser;
};

/**
 * The framework-free gateway: authentication, routing, admission, translation, upstream calls and
 * settlement, for the protocols of the codecs it is given. Throws `ConfigError` when the config
 * names a protocol or interface no codec speaks.
 */
export function createEngine(options: EngineOptions): Engine {
  const { config, store } = options;
  const clock = options.clock ?? systemClock;
  const registry = createProtocolRegistry(options.codecs);
  checkConfigProtocols(config, registry.codecs);
  checkConfigKinds(config, options.kinds ?? []);
  // Tokens a kind fetches at run time join the recogniser; one learned before it is built waits for it.
  let recogniser: LearningSecretRecogniser | undefined;
  const learnedEarly: string[] = [];
  const rememberSecret = (value: string) => (recogniser ? recogniser.remember(value) : learnedEarly.push(value));
  const pools = new Map<string, CredentialPool>();
  const routing = createLiveRouting({
    config,
    registry,
    kinds: options.kinds ?? [],
    opening: {
      registry,
      environment: options.environment ?? process.env,
      openClient: options.upstreamClient ?? ((_name, clientOptions) => createUpstreamClient(clientOptions)),
      kinds: options.kinds ?? [],
      now: clock.now,
      rememberSecret,
    },
    clock,
    pools,
  });
  const secrets = (recogniser = createSecretRecogniser([
    ...[...pools.values()].flatMap(pool => pool.secrets),
    ...learnedEarly,
    ...(options.secretValues ?? []),
  ]));
  const observer = options.observer && guardObserver(options.observer, error => options.onObserverError?.(error));
  const health = createUpstreamHealth({
    pools,
    ...(options.healthStore && { store: options.healthStore }),
    ...(observer?.upstreamHealthChanged && { onChange: observer.upstreamHealthChanged }),
  });
  const writer = createUsageWriter({
    ledger: store,
    schedule: commitScheduleOf(clock, options.usageCommitDelayMs ?? USAGE_COMMIT_DELAY_MS),
    ...(options.maxQueuedUsageCommits !== undefined && { maxQueued: options.maxQueuedUsageCommits }),
    sleep: clock.sleep,
    onError: error => options.onRecorderError?.(error),
    ...(observer?.ledgerBatchCommitted && { onBatch: observer.ledgerBatchCommitted }),
  });
  const dependencies = exchangeDependencies(options, { clock, registry, routing, secrets, writer, observer, health });
  return {
    registry,
    get routes() {
      return routing.current.table.routes;
    },
    get config() {
      return routing.current.config;
    },
    applyConfig: next => routing.apply(next),
    secrets,
    clock,
    openRequest: () => ({ requestId: createId('req_'), startedAt: clock.now() }),
    openExchange: ({ protocol, ...opening }) => openExchange(registry.codec(protocol), opening, dependencies),
    listModels: (principal, codec) => routing.current.listModels(principal, codec),
    countTokens: (principal, codec, body, { decodeOptions = {}, signal = new AbortController().signal } = {}) =>
      countTokens({ routes: routing.current.table, upstreams: routing.current.upstreams, now: clock.now }, principal, codec, body, { decodeOptions, signal }),
    storedResponses: (principal, codec) => storedResponsesFor(codec, principal, dependencies.conversations),
    async drain(graceMs) {
      await dependencies.interruptions.drain(graceMs);
      await writer.flush();
    },
    upstreamStats: () => upstreamStatsOf(routing.current.upstreams),
    upstreamHealth: () => health.report(clock.now()),
    enableCredential(upstream, credential) {
      if (!health.enable(upstream, credential)) return undefined;
      return health.report(clock.now()).find(report => report.name === upstream)?.credentials.find(report => report.name === credential);
    },
    async close() {
      await writer.flush();
      await health.close();
      await routing.close();
    },
  };
}

/** What every exchange of the engine shares, from its options and the parts `createEngine` built. */
function exchangeDependencies(
  options: EngineOptions,
  parts: {
    clock: Clock;
    registry: ProtocolRegistry;
    routing: LiveRouting;
    secrets: SecretRecogniser;
    writer: UsageWriter;
    observer: EngineObserver | undefined;
    health: UpstreamHealth;
  },
): ExchangeDependencies {
  const { config, store } = options;
  const { clock, registry, observer } = parts;
  const { sessionAffinity } = config;
  return {
    routing: parts.routing,
    affinity: {
      store: options.affinityStore ?? createMemoryAffinityStore({ now: clock.now, maxConversations: sessionAffinity.maxConversations }),
      idleMs: sessionAffinity.idleTimeoutMs,
    },
    health: parts.health,
    store,
    limiter: options.limiter ?? createMemoryLimiter(clock),
    defaultLimits: config.limits.default,
    authPolicy: authPolicies(config, registry),
    keyHeadersElsewhere: keyHeadersOf(registry),
    foreignFieldsOf: registry.foreignFieldsOf,
    forwardClientHeaders: config.forwardClientHeaders,
    settlement: {
      writer: parts.writer,
      record: createRecorder(options),
      onError: error => options.onRecorderError?.(error),
      now: clock.now,
      secrets: parts.secrets,
    },
    clock,
    interruptions: createInterruptions(clock),
    conversations: { store, retention: config.responseStore, now: clock.now, onStoreError: error => options.onResponseStoreError?.(error) },
    compactionSealer: createCompactionSealer(options.conversationSecret ?? randomBytes(32)),
    ...(observer && { observer }),
    issuers: createReasoningIssuers(),
  };
}

/** Records without ever delaying or breaking a response: the host's recorder runs later, its failures reported. */
function createRecorder(options: EngineOptions): (record: UsageRecord) => void {
  const recordUsage = options.recordUsage;
  if (!recordUsage) return () => undefined;
  return record => {
    Promise.resolve()
      .then(() => recordUsage(record))
      .catch(error => options.onRecorderError?.(error));
  };
}
