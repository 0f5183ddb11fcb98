import { randomBytes } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import { createSecretRecogniser, type Codec, type ModelInfo, type Protocol, type SecretRecogniser } from '@signalbox/core';
import type { AccountStore } from '@signalbox/accounts';
import { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions, type UpstreamClientStats } from '@signalbox/upstream';
import type { ClientAuthPolicy, KeyHeaderElsewhere, RequestHeaders } from './auth/authenticate';
import { checkConfigProtocols } from './config/check-config-protocols';
import { createCompactionSealer } from './conversations/compaction/create-compaction-sealer';
import type { GatewayConfig } from './config/gateway-config';
import type { Exchange } from './exchange/exchange';
import { openExchange, type ExchangeDependencies } from './exchange/open-exchange';
import { createUpstreamTarget, credentialValuesOf, type UpstreamTarget } from './generation/upstream-target';
import { createInterruptions, type Schedule } from './interruption/create-interruptions';
import { createMemoryLimiter } from './limits/create-memory-limiter';
import type { Limiter } from './limits/limiter';
import type { EngineObserver } from './observation/engine-observer';
import { guardObserver } from './observation/guard-observer';
import { createProtocolRegistry, type ProtocolRegistry } from './protocols/create-protocol-registry';
import { createRouteTable, type Route } from './routing/create-route-table';
import { createUsageWriter, USAGE_COMMIT_DELAY_MS, type CommitScheduler } from './usage/create-usage-writer';
import type { UsageRecord, UsageRecorder } from './usage/usage-record';

export type EngineOptions = {
  config: GatewayConfig;
  /** The codecs of the protocols the gateway speaks; each brings its own paths and headers (`codec.descriptor`). */
  codecs: readonly Codec[];
  /** Keys, accounts and balances. */
  store: AccountStore;
  /** Per-key rate, token and concurrency limits. Default: in process memory. */
  limiter?: Limiter;
  /** A response that could not be kept for `previous_response_id` (the answer still went out). Default: ignored. */
  onResponseStoreError?: (error: unknown) => void;
  /**
   * Fire-and-forget sink for usage records, called once per request after its ledger row and charge
   * were committed; its failures are reported to `onRecorderError`.
   */
  recordUsage?: UsageRecorder;
  /** Told about a failing ledger commit (each batch is retried with backoff, then given up) and about `recordUsage` failures. */
  onRecorderError?: (error: unknown) => void;
  /**
   * How the usage writer schedules its next batch commit after the first request of a batch
   * finishes. Default: `USAGE_COMMIT_DELAY_MS` later, so every request finished meanwhile joins the
   * batch. Tests pass a queue they run by hand, or the next turn (`setImmediate`) to read rows at once.
   */
  scheduleUsageCommit?: CommitScheduler;
  /** The most finished requests waiting for the ledger before settling waits for a commit. Default 1 000. */
  maxQueuedUsageCommits?: number;
  /** Where upstream keys are read from (`apiKeyEnv`). Default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  /** Waits between attempts (retry backoff, `Retry-After`, ledger commit retries); rejects when `signal` aborts. Default: a real timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The clock for key expiry, latency and the default limiter. Default `Date.now`. */
  now?: () => number;
  /** Runs a callback after a delay, cancellably (request deadlines, the drain's grace). Default: a real, unref'd timer. */
  schedule?: Schedule;
  /**
   * Opens the client of each configured upstream (by its config name), with its base URL, headers
   * and timeouts. Default `createUpstreamClient` (an undici pool). Tests pass scripted clients here.
   */
  upstreamClient?: (name: string, options: UpstreamClientOptions) => UpstreamClient;
  /**
   * The secret compaction items are sealed under (AES-256-GCM, key derived by HKDF, bound to the
   * account). Pass one kept across restarts and shared by every instance, or compaction items written
   * before a restart (or by another instance) are refused. Default: random, for this process only.
   */
  conversationSecret?: string | Uint8Array;
  /**
   * Watches requests, upstream attempts and ledger batches for metrics and traces (several combine
   * with `combineObservers`). Default: none, and no observation work is done.
   */
  observer?: EngineObserver;
  /** Told about an observer method that threw (the request goes on). Default: ignored. */
  onObserverError?: (error: unknown) => void;
  /**
   * Secrets of the host's with no shape of their own (a database password), recognised by exact
   * value wherever the gateway scrubs text, like the upstream keys, which the engine adds itself.
   */
  secretValues?: readonly string[];
};

export type Engine = {
  readonly registry: ProtocolRegistry;
  /** Routes in config order. */
  readonly routes: readonly Route[];
  /** Starts one client request on the interface of `protocol`; everything about it goes through the exchange. */
  openExchange(identity: { protocol: Protocol; requestId: string; startedAt: number; headers?: RequestHeaders }): Exchange;
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
  const registry = createProtocolRegistry(options.codecs);
  checkConfigProtocols(config, registry.codecs);
  const routes = createRouteTable(config.routes, registry);
  const now = options.now ?? Date.now;
  const environment = options.environment ?? process.env;
  const openClient: NonNullable<EngineOptions['upstreamClient']> =
    options.upstreamClient ?? ((_name, clientOptions) => createUpstreamClient(clientOptions));
  const upstreams = new Map<string, UpstreamTarget>(
    Object.entries(config.upstreams).map(([name, upstream]) => [
      name,
      createUpstreamTarget(name, upstream, registry.codec(upstream.protocol), environment, openClient),
    ]),
  );
  const secrets = createSecretRecogniser([...[...upstreams.values()].flatMap(credentialValuesOf), ...(options.secretValues ?? [])]);
  const routeTargets = new Map(
    routes.routes.map(route => [
      route.model,
      route.targets.map(target => ({ upstream: upstreams.get(target.upstream)!, model: target.model })),
    ]),
  );
  const onRecorderError = (error: unknown) => options.onRecorderError?.(error);
  const observer = options.observer && guardObserver(options.observer, error => options.onObserverError?.(error));
  const writer = createUsageWriter({
    ledger: store,
    schedule: options.scheduleUsageCommit ?? (work => void setTimeout(work, USAGE_COMMIT_DELAY_MS)),
    ...(options.maxQueuedUsageCommits !== undefined && { maxQueued: options.maxQueuedUsageCommits }),
    ...(options.sleep && { sleep: (ms: number) => options.sleep!(ms, new AbortController().signal) }),
    onError: onRecorderError,
    ...(observer?.ledgerBatchCommitted && { onBatch: observer.ledgerBatchCommitted }),
  });
  const dependencies: ExchangeDependencies = {
    routes,
    targetsOf: model => routeTargets.get(model)!,
    store,
    limiter: options.limiter ?? createMemoryLimiter({ now }),
    defaultLimits: config.limits.default,
    authPolicy: authPolicies(config, registry),
    keyHeadersElsewhere: keyHeadersOf(registry),
    forwardClientHeaders: config.forwardClientHeaders,
    models: modelInfos(routes.routes, Math.floor(now() / 1000)),
    settlement: {
      writer,
      record: createRecorder(options),
      onError: onRecorderError,
      now,
      secrets,
    },
    sleep: options.sleep ?? ((ms, signal) => wait(ms, undefined, { signal })),
    interruptions: createInterruptions({ now, schedule: options.schedule ?? scheduleTimer }),
    conversations: {
      store,
      retention: config.responseStore,
      now,
      onStoreError: error => options.onResponseStoreError?.(error),
    },
    compactionSealer: createCompactionSealer(options.conversationSecret ?? randomBytes(32)),
    ...(observer && { observer }),
  };
  return {
    registry,
    routes: routes.routes,
    secrets,
    openExchange: ({ protocol, ...identity }) => openExchange(registry.codec(protocol), identity, dependencies),
    async drain(graceMs) {
      await dependencies.interruptions.drain(graceMs);
      await writer.flush();
    },
    upstreamStats: () =>
      Object.fromEntries([...upstreams].flatMap(([name, target]) => (target.client.stats ? [[name, target.client.stats()]] : []))),
    async close() {
      await writer.flush();
      await Promise.all([...upstreams.values()].map(target => target.client.close()));
    },
  };
}

/** A real timer that does not keep the process alive on its own. */
function scheduleTimer(callback: () => void, ms: number): () => void {
  const timer = setTimeout(callback, ms);
  timer.unref();
  return () => clearTimeout(timer);
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

/** Each interface's client policy: the host's config over the codec's own accepted versions. */
function authPolicies(config: GatewayConfig, registry: ProtocolRegistry): (codec: Codec) => ClientAuthPolicy {
  const policies = new Map(
    registry.codecs.map(codec => {
      const configured = config.interfaceAuth[codec.descriptor.interfaceName];
      return [
        codec.protocol,
        {
          acceptedVersions: configured?.acceptedVersions ?? codec.descriptor.version?.accepted ?? [],
          acceptBearer: configured?.acceptBearer ?? false,
        },
      ];
    }),
  );
  return codec => policies.get(codec.protocol)!;
}

function keyHeadersOf(registry: ProtocolRegistry): KeyHeaderElsewhere[] {
  return registry.codecs.flatMap(({ descriptor }) =>
    descriptor.credential.kind === 'header' ? [{ header: descriptor.credential.header, path: descriptor.generationPath }] : [],
  );
}

function modelInfos(routes: readonly Route[], createdAt: number): ModelInfo[] {
  return routes.map(route => ({
    id: route.model,
    createdAt,
    protocols: [...route.protocols],
    ...(route.description !== undefined && { description: route.description }),
  }));
}
