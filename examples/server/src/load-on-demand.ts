/* eslint-disable @typescript-eslint/no-require-imports -- each loader is a lazy `require`: the point of this file */
import type * as AzureOpenAIKindModule from '@signalbox/kind-azure-openai';
import type * as BedrockKindModule from '@signalbox/kind-bedrock';
import type * as VertexKindModule from '@signalbox/kind-vertex';
import type * as PanelModule from '@signalbox/panel';
import type * as SQLiteStoreModule from '@signalbox/store-sqlite';
import type { UpstreamKind } from '@signalbox/core';
import type * as YAMLModule from 'yaml';
import type * as PostgresStoreModule from './open-postgres-store';
import type * as RedisLimiterModule from './open-redis-limiter';
import type * as TracingModule from './open-tracing';
import type * as MetricsModule from './create-example-metrics';
import type * as PriceCatalogFileModule from './read-price-catalog-file';
import type * as RouteModelsModule from './read-route-models';

// Modules that only some configurations use, loaded the first time one of them is asked for.
// Loading a module costs resident memory for as long as the process runs (its compiled code, its
// objects), whether or not it is ever called: pg and the PostgreSQL store, ioredis and the Redis
// limiter, and the YAML parser together cost a server on a data folder with a JSON config about
// 10 MiB it never uses; the cloud kinds are loaded once a config names one (`kinds` in codecs.ts). Node caches each module after its first `require`, so a second call costs
// a lookup. `require` rather than `import()`: this package is CommonJS, and `import()` would bring
// in the ES module loader for modules that are CommonJS too.

/** The PostgreSQL store opener (pg, @signalbox/store-postgres): for `SIGNALBOX_DATABASE_URL` or `storage.database`. */
export function loadPostgresStoreOpener(): typeof PostgresStoreModule.openPostgresStore {
  return (require('./open-postgres-store') as typeof PostgresStoreModule).openPostgresStore;
}

/** The Redis limiter opener (ioredis, @signalbox/limiter-redis): for `SIGNALBOX_REDIS_URL` or `storage.redis`. */
export function loadRedisLimiterOpener(): typeof RedisLimiterModule.openRedisLimiter {
  return (require('./open-redis-limiter') as typeof RedisLimiterModule).openRedisLimiter;
}

/** The OpenTelemetry SDK, its OTLP/HTTP exporter and the tracing observer: for a traces endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or `tracing`). */
export function loadTracingOpener(): typeof TracingModule.openTracing {
  return (require('./open-tracing') as typeof TracingModule).openTracing;
}

/**
 * The Prometheus metrics (prom-client, which brings `@opentelemetry/api` for its exemplars, and
 * @signalbox/metrics-prometheus): on unless `SIGNALBOX_METRICS=off` or `metrics.enabled: false`.
 */
export function loadExampleMetricsFactory(): typeof MetricsModule.createExampleMetrics {
  return (require('./create-example-metrics') as typeof MetricsModule).createExampleMetrics;
}

/** The account panel's router factory (its API, sessions, login throttle, single sign-on routes): at the first request under `/panel`. */
export function loadPanelFactory(): typeof PanelModule.createPanel {
  return (require('@signalbox/panel') as typeof PanelModule).createPanel;
}

/** The SQLite store (node:sqlite, @signalbox/store-sqlite) and its errors: for a data folder. */
export function loadSQLiteStore(): typeof SQLiteStoreModule {
  return require('@signalbox/store-sqlite') as typeof SQLiteStoreModule;
}

/** The YAML parser: for a config file named `.yaml` or `.yml`. */
export function loadYAML(): typeof YAMLModule {
  return require('yaml') as typeof YAMLModule;
}

/** Reading, checking and installing a price catalog file (which brings the engine): for `catalog import`. */
export function loadPriceCatalogFiles(): typeof PriceCatalogFileModule {
  return require('./read-price-catalog-file') as typeof PriceCatalogFileModule;
}

/** The model IDs of the server's routes (which brings the engine, to validate the config file): for `keys create --models`. */
export function loadRouteModelsReader(): typeof RouteModelsModule.readRouteModels {
  return (require('./read-route-models') as typeof RouteModelsModule).readRouteModels;
}

/** The Azure OpenAI kind (Entra ID tokens): for an upstream of `kind: "azure-openai"`. */
export function loadAzureOpenAIKind(): UpstreamKind {
  return (require('@signalbox/kind-azure-openai') as typeof AzureOpenAIKindModule).azureOpenAIKind;
}

/** The Amazon Bedrock kind (SigV4, the event stream): for an upstream of `kind: "bedrock"`. */
export function loadBedrockKind(): UpstreamKind {
  return (require('@signalbox/kind-bedrock') as typeof BedrockKindModule).bedrockKind;
}

/** The Google Vertex AI kind (Google tokens): for an upstream of `kind: "vertex"`. */
export function loadVertexKind(): UpstreamKind {
  return (require('@signalbox/kind-vertex') as typeof VertexKindModule).vertexKind;
}
