import { createServer, type Server } from 'node:http';
import type { AccountStore, AdminService } from '@signalbox/accounts';
import { combineObservers, systemClock, type Alerts, type Clock, type EngineObserver, type UsageRecord } from '@signalbox/engine';
import { createClientErrorListener, createGateway, type Gateway, type GatewayLogger } from '@signalbox/express';
import type { PrometheusMetrics } from '@signalbox/metrics-prometheus';
import { createSimulator, type SimulatorOptions } from '@signalbox/simulator';
import { createGracefulClose } from './close-gracefully';
import { codecs, kinds } from './codecs';
import { createApp, type TrustProxy } from './create-app';
import { createPanelOnDemand } from './create-panel-on-demand';
import { createReadinessProbe } from './create-readiness-probe';
import { createReloadingAdminService } from './create-reloading-admin-service';
import { createFirstStartSecrets, type FirstStartSecrets } from './create-first-start-secrets';
import { accessLoggerOf } from './create-logger';
import { listenHTTP } from './listen-http';
import type { MetricsSettings } from './read-metrics-settings';
import { openAlerts, type AlertSettings } from './open-alerts';
import { followWithLogs, openExampleLiveConfig } from './open-example-live-config';
import type { AdminTokenSource } from './open-storage';
import { closeOnFailure, openServerResources } from './open-server-resources';
import { loadExampleMetricsFactory } from './load-on-demand';
import type { SharedLimiter } from './open-redis-limiter';
import type { TracingSettings } from './read-tracing-settings';
import type { SharedStorageEnvironment } from './read-shared-storage-environment';
import { serverTimeouts } from './server-timeouts';
import { summarizeUsageRecord } from './summarize-usage-record';

export type ExampleServerOptions = {
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A JSON or YAML config file; embedded defaults when absent. */
  configPath?: string;
  /** A demo API key to adopt; without one, a key is created (and returned once) when the store has none. */
  demoKey?: string;
  /**
   * Told, once the server listens, the secrets this start created (a data folder's first admin
   * token, a generated demo key), even when the start then fails: the one chance to show them.
   */
  onSecretsCreated?: (secrets: FirstStartSecrets & { url: string }) => void;
  /**
   * Where keys and accounts live: a data folder (SQLite, secrets), process memory, a store of the
   * host's, or a PostgreSQL database every instance shares (`SIGNALBOX_DATABASE_URL`; `source`
   * names the setting that chose it, for start-up errors). Default: the config file's
   * `storage.database` if it has one (`chooseSharedStorage`), else memory.
   */
  storage?:
    | { kind: 'memory'; adminToken?: string }
    | { kind: 'data-directory'; path: string }
    | { kind: 'store'; store: AccountStore; adminToken?: string }
    | ({ kind: 'postgres'; source?: string } & NonNullable<SharedStorageEnvironment['database']>);
  /**
   * Where the rate, token, quota and concurrency limits are counted: process memory or a Redis
   * server every instance shares (`SIGNALBOX_REDIS_URL`). Default: the config file's
   * `storage.redis` if it has one, else memory.
   */
  limiter?: { kind: 'memory' } | ({ kind: 'redis'; source?: string } & NonNullable<SharedStorageEnvironment['redis']>);
  /** Which proxies' `X-Forwarded-*` headers to believe (`SIGNALBOX_TRUST_PROXY`); default none. */
  trustProxy?: TrustProxy;
  /** Codecs to use instead of the standard three (a host may wrap or replace one). */
  codecs?: typeof codecs;
  /** Upstream kinds to use instead of the standard ones (Azure OpenAI, Google Vertex AI), e.g. one with the host's proxy for token requests. */
  kinds?: typeof kinds;
  logger?: GatewayLogger;
  simulator?: SimulatorOptions;
  /**
   * A price catalog file (`catalog import` puts one in the data folder): routes with `pricing:
   * "catalog"` are priced from it when it exists, else from the shipped catalog.
   */
  priceCatalogPath?: string;
  /** Upstream keys are read from here (`apiKeyEnv`). Default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  /**
   * The server's time, whole: the gateway's clock (`GatewayOptions.clock`: request stamps, key
   * expiry, limits, retry waits, deadlines, the drain's grace), console token expiry, the panel's
   * sessions and login windows, and the pace of admin token file checks. Tests pass one they move
   * by hand. Default `systemClock`.
   */
  clock?: Clock;
  /** How long after its first request finished a ledger batch is committed; tests pass 0 (the next turn) to read rows at once. Default 2 ms. */
  usageCommitDelayMs?: number;
  /**
   * Prometheus metrics at `GET /metrics` (`SIGNALBOX_METRICS`, `SIGNALBOX_METRICS_PORT`,
   * `SIGNALBOX_METRICS_HOST`), laid over the config file's `metrics` section. Default: on, on the
   * main port behind the admin token.
   */
  metrics?: Partial<MetricsSettings>;
  /**
   * How many usage records `recentUsage()` keeps in memory (a tail for tests and demos; every
   * request's row is in the store's usage ledger, on disk with a data folder). Default 1000.
   */
  usageHistory?: number;
  /**
   * Where to send OpenTelemetry traces (OTLP/HTTP), or `false` for none. Default: the environment's
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`, else the config file's
   * `tracing` section (`readTracingSettings`); with neither, tracing is off and its modules are never loaded.
   */
  tracing?: TracingSettings | false;
  /** Threshold alerts and their webhook, or `false` for none. Default: the config file's `alerts` section (`readAlertSettings`). */
  alerts?: AlertSettings | false;
};

export type ExampleServer = {
  url: string;
  port: number;
  /** The demo key: the one given, or one created on this start (then `demoKeyGenerated`). */
  demoKey: string | undefined;
  demoKeyGenerated: boolean;
  /** A console token created on this start (first start of a data folder): show it once. */
  newAdminToken: string | undefined;
  /** Where the admin token comes from: made on this start (`newAdminToken`), given, the data folder's earlier one, or none. */
  adminTokenSource: 'created' | AdminTokenSource;
  store: AccountStore;
  /** The console service behind `/admin` (admin and account console tokens), for in-process consoles. */
  admin: AdminService;
  models: string[];
  gateway: Gateway;
  server: Server;
  simulatorURL: string;
  simulator: ReturnType<typeof createSimulator>;
  /** The gateway's Prometheus metrics (their registry), unless turned off. */
  metrics: PrometheusMetrics | undefined;
  /** Where `/metrics` is served: on the main port (`${url}/metrics`, admin token) or a listener of its own (no token). */
  metricsURL: string | undefined;
  /** The alerts, when configured: what is active now, and a wait for deliveries in flight. */
  alerts: Alerts | undefined;
  /** The latest usage records, oldest first, each added once its ledger row and charge were committed. */
  recentUsage(): readonly UsageRecord[];
  /**
   * Stops accepting requests, lets open ones finish for up to `graceMs` (default 10 000), ends the
   * rest with 503 `SHUTTING_DOWN` (a stream with its protocol's terminal error event; recorded as
   * `interrupted`, holds settled), then closes everything.
   */
  close(graceMs?: number): Promise<void>;
};

/** Starts the embedded simulator, then the gateway in front of it. */
export async function startExampleServer(options: ExampleServerOptions = {}): Promise<ExampleServer> {
  const simulator = createSimulator(options.simulator);
  const { url: simulatorURL } = await simulator.listen(0, '127.0.0.1');
  const { file, priceCatalog, storage, sharedLimiter, tracing, metricsSettings, alertSettings, sso } = await closeOnFailure([simulator], () =>
    openServerResources(options, simulatorURL),
  );
  const live = await closeOnFailure([simulator, storage.store, ...(sharedLimiter ? [sharedLimiter] : [])], () =>
    openExampleLiveConfig(options, { store: storage.store, file, simulatorURL, priceCatalog, serverSecret: storage.serverSecret }),
  );
  const { config } = live;
  const exampleMetrics = metricsSettings.enabled ? loadExampleMetricsFactory()(config, metricsSettings) : undefined;
  const { store } = storage;
  const alerts = alertSettings && openAlerts(alertSettings, store, options.clock ?? systemClock, options.logger);
  const usage: UsageRecord[] = [];
  const history = options.usageHistory ?? 1000;
  const gateway = createGateway({
    config,
    codecs: options.codecs ?? codecs,
    kinds: options.kinds ?? kinds,
    store,
    ...(options.logger && { logger: options.logger, accessLogger: accessLoggerOf(options.logger) }),
    ...(options.environment && { environment: options.environment }),
    ...(options.clock && { clock: options.clock }),
    ...(options.usageCommitDelayMs !== undefined && { usageCommitDelayMs: options.usageCommitDelayMs }),
    ...(storage.conversationSecret !== undefined && { conversationSecret: storage.conversationSecret }),
    ...(sharedLimiter && { limiter: sharedLimiter.limiter, healthStore: sharedLimiter.healthStore, affinityStore: sharedLimiter.affinityStore }),
    ...observerOf(tracing?.observer, exampleMetrics?.metrics.observer, alerts?.observer),
    recordUsage: record => {
      usage.push(record);
      if (usage.length > history) usage.shift();
      // The access line is the one `info` line per request; the charge, decided after it, at `debug`
      // (its summary built only when that line is written).
      const { logger } = options;
      if (logger?.debug && logger.isLevelEnabled?.('debug') !== false) logger.debug({ usage: summarizeUsageRecord(record) }, 'usage recorded');
    },
  });
  const admin = createReloadingAdminService(
    {
      store,
      routes: gateway.consoleRoutes,
      upstreams: gateway.consoleUpstreams,
      defaultKeyLimits: gateway.defaultKeyLimits,
      now: gateway.engine.clock.now,
      config: live.editing,
      ...(alerts && { alerts: alerts.activeAlerts }),
    },
    storage.adminTokenDigests,
  );
  const stopFollowing = followWithLogs(live, gateway.engine, options.logger);
  const adminRouter = gateway.createAdminRouter(admin);
  const readiness = createReadinessProbe({
    checks: { store: () => store.ping(), ...(sharedLimiter && { limiter: () => sharedLimiter.ping() }) },
    onFailure: (name, error) => options.logger?.warn({ err: error, check: name }, 'readiness check failed'),
  });
  // The panel's sessions and login windows run on the server's clock too.
  const { now } = gateway.engine.clock;
  const panel = createPanelOnDemand({
    admin,
    secrets: gateway.engine.secrets,
    sessions: { now },
    loginThrottle: { now },
    now,
    ...(sso && { sso }),
    ...(options.logger && { logger: options.logger }),
  });
  const closeOnStartFailure = async (error: unknown): Promise<never> => {
    stopFollowing();
    await Promise.all([gateway.close(), simulator.close()]);
    await tracing?.close();
    await closeStorage(store, sharedLimiter);
    throw error;
  };
  const metricsServed = exampleMetrics && (await exampleMetrics.serve(gateway, admin, store).catch(closeOnStartFailure));
  const metricsListener = metricsServed && 'listener' in metricsServed ? metricsServed.listener : undefined;
  const app = createApp(gateway, adminRouter, panel, readiness, {
    ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
    ...(metricsServed && 'router' in metricsServed && { metricsRouter: metricsServed.router }),
  });
  const server = createServer(serverTimeouts(config.bodyTimeoutMs), app);
  // Responses' WebSocket mode (Codex's preferred transport) on the same listener.
  const webSockets = gateway.attachUpgrade(server);
  const closeGracefully = createGracefulClose(server, gateway.engine, webSockets);
  const closeListenersOnFailure = (error: unknown): Promise<never> => {
    metricsListener?.close();
    server.close();
    server.closeAllConnections();
    return closeOnStartFailure(error);
  };
  const { url, port } = await listenHTTP(server, options.port ?? 8080, options.host ?? '127.0.0.1').catch(closeListenersOnFailure);
  // The admin API answers in the envelope of the gateway's Bearer interface, whatever the caller sent.
  const adminEnvelope = gateway.engine.registry.bearerCodec.protocol;
  server.on('clientError', createClientErrorListener({ engine: gateway.engine, envelopes: [{ prefix: '/admin', protocol: adminEnvelope }] }));
  const secrets = await createFirstStartSecrets(storage, options.demoKey, created => options.onSecretsCreated?.({ url, ...created })).catch(
    closeListenersOnFailure,
  );
  return {
    url,
    port,
    demoKey: options.demoKey ?? secrets.demoKey,
    demoKeyGenerated: secrets.demoKey !== undefined,
    newAdminToken: secrets.adminToken,
    adminTokenSource: secrets.adminToken !== undefined ? 'created' : storage.adminTokenSource,
    store,
    admin,
    models: gateway.engine.routes.map(route => route.model),
    gateway,
    server,
    simulatorURL,
    simulator,
    metrics: exampleMetrics?.metrics,
    alerts,
    metricsURL: metricsServed && ('url' in metricsServed ? metricsServed.url : `${url}/metrics`),
    recentUsage: () => usage,
    close: graceMs =>
      Promise.resolve(stopFollowing())
        .then(() => closeGracefully(graceMs ?? 10_000))
        .then(() => Promise.all([gateway.close(), simulator.close(), metricsListener && closeListener(metricsListener)]))
        .then(() => tracing?.close())
        .then(() => closeStorage(store, sharedLimiter)),
  };
}

/** The observers the example server runs (tracing, metrics, alerts), as the gateway's one observer. */
function observerOf(...observers: (EngineObserver | undefined)[]): { observer?: EngineObserver } {
  const present = observers.filter(observer => observer !== undefined);
  return present.length > 0 ? { observer: combineObservers(...present) } : {};
}

function closeListener(listener: Server): Promise<void> {
  listener.closeAllConnections();
  return new Promise(resolve => listener.close(() => resolve()));
}

async function closeStorage(store: AccountStore, sharedLimiter: SharedLimiter | undefined): Promise<void> {
  try {
    await store.close();
  } finally {
    await sharedLimiter?.close();
  }
}
