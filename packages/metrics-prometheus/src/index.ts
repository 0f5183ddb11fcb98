export {
  createPrometheusMetrics,
  type PrometheusMetrics,
  type PrometheusMetricsOptions,
} from './create-prometheus-metrics';
export type { HoldTotals, MetricSources, UpstreamConnectionStats } from './register-pull-gauges';
