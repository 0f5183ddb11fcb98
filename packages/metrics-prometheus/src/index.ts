export {
  createPrometheusMetrics,
  type MetricsExposition,
  type PrometheusMetrics,
  type PrometheusMetricsOptions,
} from './create-prometheus-metrics';
export type { HoldTotals, MetricSources, UpstreamConnectionStats, UpstreamHealth, WebSocketStats } from './register-pull-gauges';
