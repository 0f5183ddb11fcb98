import { performance } from 'node:perf_hooks';
import type { Metric, Registry } from 'prom-client';
import type { EngineObserver } from '@signalbox/engine';
import { createInstruments } from './create-instruments';
import { createLabelValues, type LabelValues } from './label-values';
import { createMetricsObserver } from './create-metrics-observer';
import { loadPromClient, loadPullGauges } from './load-registry-modules';
import type { MetricSources } from './register-pull-gauges';

/** The content type of the Prometheus text format, which a new prom-client `Registry` renders. */
const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type PrometheusMetricsOptions = {
  /** The host's own `prom-client` registry, to serve the gateway's metrics beside its own. Default: a new one. */
  registry?: Registry;
  /**
   * The configured model IDs (`engine.routes.map(route => route.model)`): the only values the
   * `route` label takes besides `unknown`, so a client sending made-up model names adds no series.
   */
  routes: readonly string[];
  /** The configured upstream names; any other is labelled `other`. Default: the names the engine reports, as they are. */
  upstreams?: readonly string[];
  /**
   * The configured credential names (of every upstream; `default` for an upstream with one key);
   * any other is labelled `other`. Default: the names the engine reports, as they are.
   */
  credentials?: readonly string[];
  /**
   * Label tokens and cost by the account group of the key (its own group, else its account's): the
   * groups to name (others are `other`, no group is `none`), or `'all'` for every group as it is,
   * which is bounded only by the groups the operator creates. Default: no `group` label.
   */
  accountGroups?: readonly string[] | 'all';
  /**
   * Also register prom-client's default process and Node.js metrics (CPU, memory, handles, GC,
   * event-loop delay) on the registry. Default true; turn it off when the host's registry has them already.
   */
  defaultMetrics?: boolean;
  /** The longest a scrape waits for the store's hold totals. Default 1000 (`DEFAULT_HOLD_TOTALS_TIMEOUT_MS`). */
  holdTotalsTimeoutMs?: number;
  /** A monotonic clock in milliseconds for upstream attempt durations. Default `performance.now`. */
  now?: () => number;
};

/** What a `/metrics` endpoint serves: the exposition text of every metric and its content type. */
export type MetricsExposition = {
  metrics(): Promise<string>;
  readonly contentType: string;
};

export type PrometheusMetrics = {
  /** Pass to `createEngine` / `createGateway` as `observer` (with `combineObservers` beside a tracer). */
  readonly observer: EngineObserver;
  /**
   * The prom-client registry with every metric: the host's own, or one made (prom-client loaded,
   * the pull gauges and default metrics registered) when first read.
   */
  readonly registry: Registry;
  /**
   * What to serve at `/metrics` (`createMetricsRouter`'s `registry`): reads `registry` at the first
   * scrape only, so a gateway nobody scrapes never loads prom-client. Requests are counted from the start either way.
   */
  readonly exposition: MetricsExposition;
  /** Gives the pull gauges their sources once the engine and the store exist; a later call replaces them. */
  watch(sources: MetricSources): void;
};

/**
 * Prometheus metrics for the gateway on a `prom-client` registry: an engine observer that counts
 * requests, attempts, tokens, cost and ledger batches as they happen, and gauges read at scrape time
 * (upstream connections, holds, process metrics). Every label takes its values from a set fixed
 * by the config. Serve `exposition` (or `registry`) with `createMetricsRouter` of the Express package.
 * Without a host registry, prom-client and the scrape-time gauges are set up at the first scrape; the
 * default process metrics that watch events (GC, event loop delay) then start watching.
 */
export function createPrometheusMetrics(options: PrometheusMetricsOptions): PrometheusMetrics {
  const groupLabel = options.accountGroups !== undefined;
  const labels = createLabelValues({
    routes: options.routes,
    upstreams: options.upstreams,
    credentials: options.credentials,
    groups: options.accountGroups ?? 'all',
  });
  // The observer's own series wait in this list until the registry exists, then go to it first.
  const pending: Metric[] = [];
  const instruments = createInstruments(options.registry ?? { registerMetric: metric => void pending.push(metric) }, { groupLabel });
  let sources: MetricSources = {};
  let registry = options.registry && completeRegistry(options.registry, [], options, labels, () => sources);
  const registryNow = (): Registry => (registry ??= completeRegistry(new (loadPromClient().Registry)(), pending, options, labels, () => sources));
  return {
    observer: createMetricsObserver({
      instruments,
      labels,
      groupLabel,
      now: options.now ?? (() => performance.now()),
    }),
    get registry() {
      return registryNow();
    },
    exposition: options.registry ?? {
      metrics: () => registryNow().metrics(),
      contentType: PROMETHEUS_CONTENT_TYPE,
    },
    watch(next) {
      sources = next;
    },
  };
}

/** Registers on `registry` the observer's `series`, then the pull gauges and (unless turned off) prom-client's default metrics. */
function completeRegistry(
  registry: Registry,
  series: readonly Metric[],
  options: PrometheusMetricsOptions,
  labels: LabelValues,
  sources: () => MetricSources,
): Registry {
  for (const metric of series) registry.registerMetric(metric);
  const { registerPullGauges, DEFAULT_HOLD_TOTALS_TIMEOUT_MS } = loadPullGauges();
  registerPullGauges(registry, { labels, holdTimeoutMs: options.holdTotalsTimeoutMs ?? DEFAULT_HOLD_TOTALS_TIMEOUT_MS, sources });
  if (options.defaultMetrics ?? true) loadPromClient().collectDefaultMetrics({ register: registry });
  return registry;
}
