/**
 * The metrics documentation, the Prometheus alert rules and the Grafana dashboard under docs/ name
 * only metrics the gateway registers, and the documentation lists every one it registers: a
 * renamed metric fails here instead of in an operator's silent dashboard.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrometheusMetrics } from '@signalbox/metrics-prometheus';
import { parse as parseYAML } from 'yaml';

const root = join(__dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

type AlertRule = { alert: string; expr: string; for?: string; labels: { severity: string }; annotations: { summary: string; description: string } };

/** Every metric name the gateway's registry serves, default process metrics included. */
async function registeredNames(): Promise<Set<string>> {
  const { registry } = createPrometheusMetrics({ routes: ['route-a'], upstreams: ['upstream-a'] });
  const metrics = await registry.getMetricsAsJSON();
  return new Set(metrics.map(metric => metric.name));
}

/** The metric names a PromQL expression reads (a histogram's `_bucket`, `_count` and `_sum` series by the histogram's name). */
function metricsIn(expression: string): string[] {
  const names = expression.match(/\b(?:signalbox|nodejs|process)_[a-z0-9_]+\b/g) ?? [];
  return names.map(name => name.replace(/_(bucket|count|sum)$/, ''));
}

describe('the metrics documentation', () => {
  it('alert rules parse, each with an expression, a severity, a summary and a description, reading only registered metrics', async () => {
    const names = await registeredNames();
    const document = parseYAML(read('docs/prometheus/alerts.yml')) as { groups: Array<{ name: string; rules: AlertRule[] }> };
    const rules = document.groups.flatMap(group => group.rules);
    expect(document.groups.map(group => group.name)).toEqual(['signalbox']);
    expect(rules.map(rule => rule.alert)).toEqual([
      'SignalboxUpstreamErrorRate',
      'SignalboxRequestsFailing',
      'SignalboxHoldsPastExpiry',
      'SignalboxHoldsOutstandingHigh',
      'SignalboxLedgerQueueGrowing',
      'SignalboxLedgerBatchesGivenUp',
      'SignalboxEventLoopDelay',
      'SignalboxUpstreamConnectionsQueued',
    ]);
    for (const rule of rules) {
      expect(Object.keys(rule).sort()).toEqual(rule.for === undefined ? ['alert', 'annotations', 'expr', 'labels'] : ['alert', 'annotations', 'expr', 'for', 'labels']);
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical']).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(0);
      expect(rule.annotations.description.length).toBeGreaterThan(0);
      expect(metricsIn(rule.expr).length).toBeGreaterThan(0);
      expect(metricsIn(rule.expr).filter(name => !names.has(name))).toEqual([]);
      expect(rule.expr.split('(').length).toBe(rule.expr.split(')').length);
    }
  });

  it('the Grafana dashboard is importable JSON whose every query reads registered metrics', async () => {
    const names = await registeredNames();
    const dashboard = JSON.parse(read('docs/grafana/signalbox-dashboard.json')) as {
      title: string;
      __inputs: Array<{ name: string; pluginId: string }>;
      panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }>;
    };
    expect(dashboard.title).toBe('Signalbox');
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', pluginId: 'prometheus' })]);
    const queries = dashboard.panels.flatMap(panel => panel.targets ?? []).map(target => target.expr);
    expect(queries.length).toBeGreaterThan(20);
    const used = new Set(queries.flatMap(metricsIn));
    expect([...used].filter(name => !names.has(name))).toEqual([]);
    // Requests, errors, latency, tokens and cost, upstream health.
    for (const name of ['signalbox_requests_total', 'signalbox_request_duration_seconds', 'signalbox_time_to_first_byte_seconds', 'signalbox_tokens_total', 'signalbox_cost_micros_total', 'signalbox_upstream_attempts_total']) {
      expect(used).toContain(name);
    }
  });

  it('docs/operations.md describes every signalbox metric the gateway registers', async () => {
    const names = [...(await registeredNames())].filter(name => name.startsWith('signalbox_'));
    const page = read('docs/operations.md');
    const start = page.indexOf('\n## Metrics\n');
    const end = page.indexOf('\n## ', start + 1);
    expect(start).toBeGreaterThanOrEqual(0);
    const section = page.slice(start, end === -1 ? undefined : end);
    expect(names.filter(name => !section.includes(`| \`${name}\``))).toEqual([]);
  });
});
