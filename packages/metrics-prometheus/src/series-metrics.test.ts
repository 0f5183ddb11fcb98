import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { createSeriesCounter, createSeriesGauge, createSeriesHistogram } from './series-metrics';

const BUCKETS = [0.01, 0.1, 1];

/** The same updates through prom-client's own metric classes and through the series metrics: the scrapes must match. */
function bothRegistries() {
  const own = new Registry();
  const reference = new Registry();
  return {
    own,
    reference,
    counter: {
      own: createSeriesCounter(own, { name: 'test_requests_total', help: 'Requests.', labelNames: ['route', 'code'] }),
      reference: new Counter({ name: 'test_requests_total', help: 'Requests.', labelNames: ['route', 'code'], registers: [reference] }),
    },
    gauge: {
      own: createSeriesGauge(own, { name: 'test_in_flight', help: 'In flight.', labelNames: [] }),
      reference: new Gauge({ name: 'test_in_flight', help: 'In flight.', registers: [reference] }),
    },
    histogram: {
      own: createSeriesHistogram(own, { name: 'test_duration_seconds', help: 'Durations.', labelNames: ['route'], buckets: BUCKETS }),
      reference: new Histogram({ name: 'test_duration_seconds', help: 'Durations.', labelNames: ['route'], buckets: BUCKETS, registers: [reference] }),
    },
  };
}

describe('series metrics', () => {
  it('scrape exactly as prom-client’s own counter, gauge and histogram given the same updates', async () => {
    const { own, reference, counter, gauge, histogram } = bothRegistries();
    counter.own.inc(['a', 'none']);
    counter.reference.inc({ route: 'a', code: 'none' });
    counter.own.inc(['a', 'none'], 2);
    counter.reference.inc({ route: 'a', code: 'none' }, 2);
    counter.own.inc(['b', 'RATE_LIMITED']);
    counter.reference.inc({ route: 'b', code: 'RATE_LIMITED' });
    gauge.own.inc([]);
    gauge.own.inc([]);
    gauge.own.dec([]);
    gauge.reference.inc();
    gauge.reference.inc();
    gauge.reference.dec();
    // On a bound, between bounds, above the last one.
    for (const value of [0.01, 0.05, 0.5, 3]) {
      histogram.own.observe(['a'], value);
      histogram.reference.observe({ route: 'a' }, value);
    }
    histogram.own.observe(['b'], 0.001);
    histogram.reference.observe({ route: 'b' }, 0.001);

    const scraped = await own.metrics();
    expect(scraped).toBe(await reference.metrics());
    expect(scraped).toContain('test_duration_seconds_bucket{le="0.1",route="a"} 2');
    expect(scraped).toContain('test_duration_seconds_bucket{le="+Inf",route="a"} 4');
  });

  it('keep apart series whose label values share a beginning, and count each in its own', async () => {
    const own = new Registry();
    const reference = new Registry();
    const labelNames = ['upstream', 'result', 'code'];
    const counter = createSeriesCounter(own, { name: 'test_attempts_total', help: 'Attempts.', labelNames });
    const referenceCounter = new Counter({ name: 'test_attempts_total', help: 'Attempts.', labelNames, registers: [reference] });
    const updates = [
      ['first', 'served', 'none'],
      ['first', 'failed', 'UPSTREAM_FAILED'],
      ['first', 'served', 'none'],
      ['second', 'served', 'none'],
      ['first', 'failed', 'UPSTREAM_TIMEOUT'],
    ];
    for (const [upstream, result, code] of updates) {
      counter.inc([upstream!, result!, code!]);
      referenceCounter.inc({ upstream: upstream!, result: result!, code: code! });
    }

    const scraped = await own.metrics();
    expect(scraped).toBe(await reference.metrics());
    expect(scraped).toContain('test_attempts_total{upstream="first",result="served",code="none"} 2');
    expect(scraped).toContain('test_attempts_total{upstream="first",result="failed",code="UPSTREAM_TIMEOUT"} 1');
    own.resetMetrics();
    expect(await own.metrics()).not.toContain('test_attempts_total{');
  });

  it('export a metric without labels at 0 before its first update, and again after a reset', async () => {
    const { own, reference, gauge } = bothRegistries();
    expect(await own.metrics()).toBe(await reference.metrics());
    expect(await own.metrics()).toContain('test_in_flight 0');
    gauge.own.inc([]);
    own.resetMetrics();
    expect(await own.metrics()).toContain('test_in_flight 0');
  });
});
