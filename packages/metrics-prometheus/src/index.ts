export {
  createPrometheusMetrics,
  type PrometheusMetrics,
  type PrometheusMetricsOptions,
} from './create-prometheus-metrics';
export {
  DEFAULT_HOLD_TOTALS_TIMEOUT_MS,
  type HoldTotals,
  type MetricSources,
  type UpstreamConnectionStats,
} from './register-pull-gauges';
export { NONE, OTHER, UNKNOWN_ROUTE } from './label-values';
