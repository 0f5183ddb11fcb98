import { Registry } from 'prom-client';
import { GatewayError } from '@signalbox/core';
import { createArrayFrameSink, createFailoverTestEngine, type TestEngine } from '@signalbox/engine/testing';
import { createPrometheusMetrics, type PrometheusMetricsOptions } from './create-prometheus-metrics';


/** The value of one series, or `undefined` when the metric has no series with exactly these labels. */
async function valueOf(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return values.find(value => JSON.stringify(Object.entries(value.labels).sort()) === wanted)?.value;
}

/** One of a histogram's series (`_count`, `_sum`) for these labels. */
async function histogramSeries(
  registry: Registry,
  name: string,
  series: 'count' | 'sum',
  labels: Record<string, string>,
) {
  const { values } = await registry.getSingleMetric(name)!.get();
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return values.find(
    value =>
      (value as { metricName?: string }).metricName === `${name}_${series}` &&
      JSON.stringify(Object.entries(value.labels).sort()) === wanted,
  )?.value;
}

const countOf = (registry: Registry, name: string, labels: Record<string, string>) =>
  histogramSeries(registry, name, 'count', labels);
const sumOf = (registry: Registry, name: string, labels: Record<string, string>) =>
  histogramSeries(registry, name, 'sum', labels);

function metricsFor(options: Partial<PrometheusMetricsOptions> = {}) {
  let clock = 0;
  const metrics = createPrometheusMetrics({
    routes: ['client-model'],
    upstreams: ['a', 'b'],
    defaultMetrics: false,
    now: () => (clock += 250),
    ...options,
  });
  return metrics;
}

async function failoverEngine(options: Partial<PrometheusMetricsOptions> = {}, key?: { group: string }) {
  const metrics = metricsFor(options);
  const test = await createFailoverTestEngine({ observer: metrics.observer, ...(key && { key }) });
  return { metrics, registry: metrics.registry, test };
}

async function streamOnce(test: TestEngine) {
  const exchange = await test.open('openai-responses');
  const output = await exchange.generate(
    { model: 'client-model', input: 'Say hello', stream: true },
    new AbortController().signal,
  );
  if (output.kind !== 'stream') throw new Error('expected a stream');
  await output.pipe(createArrayFrameSink());
}

beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => jest.restoreAllMocks());

describe('the Prometheus metrics observer', () => {
  it('counts a translated stream that failed over: the request, both attempts, the failover, its tokens and its charge', async () => {
    const { registry, test } = await failoverEngine();
    await streamOnce(test);
    const [record] = await test.recorded();

    expect(record).toMatchObject({ status: 200, outcome: 'completed', upstream: 'b', attempts: 2 });
    const requestLabels = {
      interface: 'openai-responses',
      route: 'client-model',
      upstream: 'b',
      status: '200',
      outcome: 'completed',
      code: 'none',
    };
    expect(await valueOf(registry, 'signalbox_requests_total', requestLabels)).toBe(1);
    expect(
      await valueOf(registry, 'signalbox_upstream_attempts_total', {
        upstream: 'a',
        result: 'failed',
        code: 'UPSTREAM_OVERLOADED',
      }),
    ).toBe(1);
    expect(
      await valueOf(registry, 'signalbox_upstream_attempts_total', {
        upstream: 'b',
        result: 'served',
        code: 'none',
      }),
    ).toBe(1);
    expect(
      await valueOf(registry, 'signalbox_upstream_failovers_total', {
        from: 'a',
        to: 'b',
        reason: 'UPSTREAM_OVERLOADED',
      }),
    ).toBe(1);
    expect((await registry.getSingleMetric('signalbox_upstream_retries_total')!.get()).values).toEqual([]);
    expect(
      await countOf(registry, 'signalbox_upstream_attempt_duration_seconds', {
        upstream: 'a',
        result: 'failed',
      }),
    ).toBe(1);
    expect(
      await countOf(registry, 'signalbox_upstream_attempt_duration_seconds', {
        upstream: 'b',
        result: 'served',
      }),
    ).toBe(1);
    // The injected clock moves 250 ms per reading, and each attempt reads it at its start and its end.
    expect(
      await sumOf(registry, 'signalbox_upstream_attempt_duration_seconds', {
        upstream: 'b',
        result: 'served',
      }),
    ).toBe(0.25);
    expect(
      await countOf(registry, 'signalbox_request_duration_seconds', {
        interface: 'openai-responses',
        route: 'client-model',
        outcome: 'completed',
      }),
    ).toBe(1);

    expect(await valueOf(registry, 'signalbox_tokens_total', { route: 'client-model', kind: 'input' })).toBe(
      record!.usage!.inputTokens,
    );
    expect(
      await valueOf(registry, 'signalbox_tokens_total', { route: 'client-model', kind: 'output' }),
    ).toBe(record!.usage!.outputTokens);
    expect(record!.costMicros).toBeGreaterThan(0);
    expect(await valueOf(registry, 'signalbox_cost_micros_total', { route: 'client-model' })).toBe(
      record!.costMicros,
    );

    // Everything settled is in the ledger and nothing is in flight any more.
    expect(await valueOf(registry, 'signalbox_ledger_queue_depth')).toBe(0);
    expect(await valueOf(registry, 'signalbox_ledger_rows_total', { result: 'committed' })).toBe(1);
    expect(await valueOf(registry, 'signalbox_streams_in_flight', { interface: 'openai-responses' })).toBe(
      0,
    );
    expect(await valueOf(registry, 'signalbox_requests_in_flight', { interface: 'openai-responses' })).toBe(
      0,
    );
  });

  it('keeps a stream in flight from its commit point until it settles', async () => {
    const { registry, test } = await failoverEngine();
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate(
      { model: 'client-model', input: 'Say hello', stream: true },
      new AbortController().signal,
    );
    if (output.kind !== 'stream') throw new Error('expected a stream');

    expect(await valueOf(registry, 'signalbox_streams_in_flight', { interface: 'openai-responses' })).toBe(
      1,
    );
    await output.pipe(createArrayFrameSink());
    await test.recorded();
    expect(await valueOf(registry, 'signalbox_streams_in_flight', { interface: 'openai-responses' })).toBe(
      0,
    );
  });

  it('counts every unknown model under the one route label `unknown`', async () => {
    const { registry, test } = await failoverEngine();
    for (const model of ['made-up-1', 'made-up-2', 'made-up-3']) {
      const exchange = await test.open('openai-responses');
      await expect(
        exchange.generate({ model, input: 'hi' }, new AbortController().signal),
      ).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    }
    await test.recorded(3);

    const { values } = await registry.getSingleMetric('signalbox_requests_total')!.get();
    expect(values).toEqual([
      {
        labels: {
          interface: 'openai-responses',
          route: 'unknown',
          upstream: 'none',
          status: '404',
          outcome: 'error',
          code: 'MODEL_NOT_FOUND',
        },
        value: 3,
      },
    ]);
  });

  it('counts a limiter refusal by its code, and a bad key as a 401 with no route', async () => {
    const { registry, test } = await failoverEngine();
    const limited = test.engine.openExchange({ protocol: 'openai-chat' });
    limited.refuse(new GatewayError({ code: 'RATE_LIMITED', message: 'Too many requests.' }));
    const badKey = test.engine.openExchange({ protocol: 'openai-chat' });
    badKey.refuse(new GatewayError({ code: 'API_KEY_INVALID', message: 'Invalid API key.' }));
    await test.recorded(2);

    expect(
      await valueOf(registry, 'signalbox_limiter_refusals_total', {
        interface: 'openai-chat',
        code: 'RATE_LIMITED',
      }),
    ).toBe(1);
    expect((await registry.getSingleMetric('signalbox_limiter_refusals_total')!.get()).values).toHaveLength(
      1,
    );
    const badKeyLabels = {
      interface: 'openai-chat',
      route: 'unknown',
      upstream: 'none',
      status: '401',
      outcome: 'error',
      code: 'API_KEY_INVALID',
    };
    expect(await valueOf(registry, 'signalbox_requests_total', badKeyLabels)).toBe(1);
  });

  it('labels tokens and cost by account group when asked, naming only the groups listed', async () => {
    const listed = await failoverEngine({ accountGroups: ['research'] }, { group: 'research' });
    await streamOnce(listed.test);
    const [record] = await listed.test.recorded();
    expect(
      await valueOf(listed.registry, 'signalbox_cost_micros_total', {
        route: 'client-model',
        group: 'research',
      }),
    ).toBe(record!.costMicros);

    const unlisted = await failoverEngine({ accountGroups: ['research'] }, { group: 'made-up-group' });
    await streamOnce(unlisted.test);
    await unlisted.test.recorded();
    expect(
      await valueOf(unlisted.registry, 'signalbox_tokens_total', {
        route: 'client-model',
        group: 'other',
        kind: 'output',
      }),
    ).toBeGreaterThan(0);
  });

  it('counts attempts by the credential they used, and the health changes the engine reports, naming only configured credentials', async () => {
    const { registry, test, metrics } = await failoverEngine({ credentials: ['default', 'team-a'] });
    await streamOnce(test);
    await test.recorded();
    expect(await valueOf(registry, 'signalbox_upstream_credential_attempts_total', { upstream: 'a', credential: 'default', result: 'failed' })).toBe(1);
    expect(await valueOf(registry, 'signalbox_upstream_credential_attempts_total', { upstream: 'b', credential: 'default', result: 'served' })).toBe(1);

    metrics.observer.upstreamHealthChanged!({ kind: 'cooldown', upstream: 'a', credential: 'team-a', until: 1 });
    metrics.observer.upstreamHealthChanged!({ kind: 'circuit-open', upstream: 'b', until: 1 });
    metrics.observer.upstreamHealthChanged!({ kind: 'disabled', upstream: 'a', credential: 'made-up', reason: 'upstream-401' });
    expect(await valueOf(registry, 'signalbox_upstream_health_events_total', { upstream: 'a', credential: 'team-a', event: 'cooldown' })).toBe(1);
    expect(await valueOf(registry, 'signalbox_upstream_health_events_total', { upstream: 'b', credential: 'none', event: 'circuit_open' })).toBe(1);
    expect(await valueOf(registry, 'signalbox_upstream_health_events_total', { upstream: 'a', credential: 'other', event: 'disabled' })).toBe(1);
  });

  it('counts conversations kept on their credential and those moved by force, by the upstream left and the reason', async () => {
    const { registry, metrics } = await failoverEngine({ credentials: ['default', 'team-a'] });
    const served = { route: 'client-model', upstream: 'a', credential: 'team-a' };
    metrics.observer.sessionAffinity!({ ...served, result: 'new' });
    metrics.observer.sessionAffinity!({ ...served, result: 'kept' });
    metrics.observer.sessionAffinity!({ ...served, result: 'moved', from: { upstream: 'a', credential: 'default' }, reason: 'cooling-down' });
    metrics.observer.sessionAffinity!({ ...served, result: 'moved', from: { upstream: 'made-up', credential: 'x' }, reason: 'circuit-open' });
    expect(await valueOf(registry, 'signalbox_affinity_requests_total', { result: 'kept' })).toBe(1);
    expect(await valueOf(registry, 'signalbox_affinity_requests_total', { result: 'moved' })).toBe(2);
    expect(await valueOf(registry, 'signalbox_affinity_moves_total', { upstream: 'a', reason: 'cooling_down' })).toBe(1);
    expect(await valueOf(registry, 'signalbox_affinity_moves_total', { upstream: 'other', reason: 'circuit_open' })).toBe(1);
  });

  it('plugs into the host registry beside the host metrics', async () => {
    const registry = new Registry();
    const metrics = metricsFor({ registry });
    expect(metrics.registry).toBe(registry);
    expect(metrics.exposition).toBe(registry);
    expect(await registry.metrics()).toContain('# TYPE signalbox_requests_total counter');
  });

  it('counts the requests made before its registry is first read, and serves them, the scrape-time gauges and the process metrics at the first scrape', async () => {
    const metrics = metricsFor({ defaultMetrics: true });
    const test = await createFailoverTestEngine({ observer: metrics.observer });
    await streamOnce(test);
    metrics.watch({ upstreamStats: () => ({ b: { connected: 1, inUse: 0, queued: 0 } }) });

    const text = await metrics.exposition.metrics();
    expect(text).toContain(
      'signalbox_requests_total{interface="openai-responses",route="client-model",upstream="b",status="200",outcome="completed",code="none"} 1\n',
    );
    expect(text).toContain('signalbox_upstream_attempts_total{upstream="a",result="failed",code="UPSTREAM_OVERLOADED"} 1\n');
    expect(text).toContain('signalbox_upstream_connections_open{upstream="b"} 1\n');
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(metrics.exposition.contentType).toBe(metrics.registry.contentType);
    expect(await valueOf(metrics.registry, 'signalbox_requests_total', { interface: 'openai-responses', route: 'client-model', upstream: 'b', status: '200', outcome: 'completed', code: 'none' })).toBe(1);
  });
});

describe('the gauges read at scrape time', () => {
  it('reads upstream connections and the store holds when scraped', async () => {
    const metrics = metricsFor();
    metrics.watch({
      upstreamStats: () => ({ a: { connected: 3, inUse: 2, queued: 1 } }),
      holdTotals: async () => ({ count: 2, amountMicros: 1_500, earliestExpiresAt: 1_767_225_600_000 }),
    });
    const { registry } = metrics;

    expect(await valueOf(registry, 'signalbox_upstream_connections_open', { upstream: 'a' })).toBe(3);
    expect(await valueOf(registry, 'signalbox_upstream_connections_in_use', { upstream: 'a' })).toBe(2);
    expect(await valueOf(registry, 'signalbox_upstream_requests_queued', { upstream: 'a' })).toBe(1);
    const text = await registry.metrics();
    expect(text).toContain('signalbox_holds_outstanding 2\n');
    expect(text).toContain('signalbox_holds_amount_micros 1500\n');
    expect(text).toContain('signalbox_holds_earliest_expiry_timestamp_seconds 1767225600\n');
  });

  it('reads the WebSocket connections open, closed and the responses the closed ones served when scraped', async () => {
    const metrics = metricsFor();
    let stats = { open: 2, closed: 3, closedResponses: 41 };
    metrics.watch({ webSocketStats: () => stats });
    const text = await metrics.registry.metrics();
    expect(text).toContain('signalbox_websocket_connections_open 2\n');
    expect(text).toContain('signalbox_websocket_connections_closed 3\n');
    expect(text).toContain('signalbox_websocket_connection_responses 41\n');
    stats = { open: 0, closed: 5, closedResponses: 50 };
    expect(await metrics.registry.metrics()).toContain('signalbox_websocket_connections_open 0\n');
  });

  it("reads each upstream's and credential's state and requests in flight when scraped", async () => {
    const metrics = metricsFor({ credentials: ['team-a', 'team-b'] });
    metrics.watch({
      upstreamHealth: () => [
        {
          name: 'a',
          protocol: 'anthropic-messages',
          state: 'healthy',
          inFlight: 3,
          credentials: [
            { name: 'team-a', state: 'cooling-down', until: 1_767_225_630_000, weight: 1, inFlight: 0 },
            { name: 'team-b', state: 'healthy', weight: 1, inFlight: 3 },
          ],
        },
      ],
    });
    const { registry } = metrics;
    const stateOf = (credential: string, state: string) => valueOf(registry, 'signalbox_upstream_credential_state', { upstream: 'a', credential, state });
    expect([await stateOf('team-a', 'cooling-down'), await stateOf('team-a', 'healthy'), await stateOf('team-b', 'healthy'), await stateOf('team-b', 'disabled')]).toEqual([1, 0, 1, 0]);
    expect(await valueOf(registry, 'signalbox_upstream_credential_in_flight', { upstream: 'a', credential: 'team-b' })).toBe(3);
    expect(await valueOf(registry, 'signalbox_upstream_state', { upstream: 'a', state: 'healthy' })).toBe(1);
    expect(await valueOf(registry, 'signalbox_upstream_state', { upstream: 'a', state: 'circuit-open' })).toBe(0);
  });

  it('reads the holds once per scrape and keeps the last totals when the store does not answer in time', async () => {
    jest.useFakeTimers();
    try {
      let reads = 0;
      let answer = true;
      const metrics = metricsFor({ holdTotalsTimeoutMs: 1000 });
      metrics.watch({
        holdTotals: () => {
          reads += 1;
          return answer
            ? Promise.resolve({ count: 4, amountMicros: 40, earliestExpiresAt: undefined })
            : new Promise(() => undefined);
        },
      });
      expect(await metrics.registry.metrics()).toContain('signalbox_holds_outstanding 4\n');
      expect(reads).toBe(1);

      answer = false;
      const scrape = metrics.registry.metrics();
      await jest.advanceTimersByTimeAsync(1000);
      const text = await scrape;
      expect(text).toContain('signalbox_holds_outstanding 4\n');
      expect(text).toContain('signalbox_holds_earliest_expiry_timestamp_seconds 0\n');
      expect(text).toContain('signalbox_holds_read_failures_total 1\n');
      expect(reads).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
