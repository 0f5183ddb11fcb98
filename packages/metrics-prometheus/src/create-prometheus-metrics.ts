import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { EngineObserver } from '@signalbox/engine';
import { createInstruments } from './create-instruments';
import { createLabelValues } from './label-values';
import { createMetricsObserver } from './create-metrics-observer';
import {
  DEFAULT_HOLD_TOTALS_TIMEOUT_MS,
  registerPullGauges,
  type MetricSources,
} from './register-pull-gauges';

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
  /** The longest a scrape waits for the store's hold totals. Default `DEFAULT_HOLD_TOTALS_TIMEOUT_MS`. */
  holdTotalsTimeoutMs?: number;
  /** A monotonic clock in milliseconds for upstream attempt durations. Default `performance.now`. */
  now?: () => number;
};

export type PrometheusMetrics = {
  /** Pass to `createEngine` / `createGateway` as `observer` (with `combineObservers` beside a tracer). */
  readonly observer: EngineObserver;
  readonly registry: Registry;
  /** Gives the pull gauges their sources once the engine and the store exist; a later call replaces them. */
  watch(sources: MetricSources): void;
};

/**
 * Prometheus metrics for the gateway on a `prom-client` registry: an engine observer that counts
 * requests, attempts, tokens, cost and ledger batches as they happen, and gauges read at scrape time
 * (upstream connections, holds, process metrics). Every label takes its values from a set fixed
 * by the config. Serve `registry.metrics()` with `registry.contentType` (the Express package's
 * `createMetricsHandler` does).
 */
export function createPrometheusMetrics(options: PrometheusMetricsOptions): PrometheusMetrics {
  const registry = options.registry ?? new Registry();
  const groupLabel = options.accountGroups !== undefined;
  const labels = createLabelValues({
    routes: options.routes,
    upstreams: options.upstreams,
    credentials: options.credentials,
    groups: options.accountGroups ?? 'all',
  });
  const instruments = createInstruments(registry, { groupLabel });
  let sources: MetricSources = {};
  registerPullGauges(registry, {
    labels,
    holdTimeoutMs: options.holdTotalsTimeoutMs ?? DEFAULT_HOLD_TOTALS_TIMEOUT_MS,
    sources: () => sources,
  });
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  return {
    observer: createMetricsObserver({
      instruments,
      labels,
      groupLabel,
      now: options.now ?? (() => performance.now()),
    }),
    registry,
    watch(next) {
      sources = next;
    },
  };
}
