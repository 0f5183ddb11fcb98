import type { Metric, Registry } from 'prom-client';

/** Where a metric is registered: a prom-client `Registry`, or a list that hands its metrics to one later. */
export type MetricRegistrar = Pick<Registry, 'registerMetric'>;

/** One exported line of a metric, as prom-client's registry formats it. */
type ExportedValue = { value: number; labels: Record<string, string>; metricName?: string };

type Described = { name: string; help: string; labelNames: readonly string[] };

type Series<Value> = { labels: Record<string, string>; value: Value };

/** One label's values, each leading to the next label's values, or to its series at the last label. */
type Level<Value> = Map<string, Level<Value> | Series<Value>>;

/**
 * The series of one metric, found by their label values. prom-client's own `inc` and `observe`
 * check every label name, sort and join the label object and build a value object on each call
 * (about 1–2 µs each, a dozen calls per request); here a call walks one Map per label, keyed by the
 * value it is given, so it builds no key and allocates nothing once the series exists; the work of
 * naming labels is done once per series, at its first use, and at scrape time.
 */
class SeriesMap<Value> {
  private readonly root: Level<Value> = new Map();
  private readonly all: Series<Value>[] = [];

  constructor(
    private readonly labelNames: readonly string[],
    private readonly create: () => Value,
  ) {
    // A metric without labels has its one series from the start (exported as 0), like prom-client's.
    if (labelNames.length === 0) this.of([]);
  }

  /** The series of `values` (in `labelNames` order; label values from a bounded set), made at its first use. */
  of(values: readonly string[]): Value {
    let level = this.root;
    const last = values.length - 1;
    for (let index = 0; index < last; index++) {
      let next = level.get(values[index]!) as Level<Value> | undefined;
      if (!next) {
        next = new Map();
        level.set(values[index]!, next);
      }
      level = next;
    }
    // A metric without labels keeps its one series under the empty value.
    const lastValue = last === -1 ? '' : values[last]!;
    const found = level.get(lastValue) as Series<Value> | undefined;
    return found ? found.value : this.add(level, lastValue, values);
  }

  entries(): readonly Series<Value>[] {
    return this.all;
  }

  /** Forgets every series (the registry's `resetMetrics`); a metric without labels keeps its one, at its start value. */
  reset(): void {
    this.root.clear();
    this.all.length = 0;
    if (this.labelNames.length === 0) this.of([]);
  }

  private add(level: Level<Value>, lastValue: string, values: readonly string[]): Value {
    const labels: Record<string, string> = {};
    this.labelNames.forEach((name, index) => (labels[name] = values[index]!));
    const series = { labels, value: this.create() };
    level.set(lastValue, series);
    this.all.push(series);
    return series.value;
  }
}

/**
 * A metric of the registry that prom-client formats at scrape time: its registry calls `get()`
 * (and `reset()`), the same contract as prom-client's own metric classes.
 */
function register(registry: MetricRegistrar, metric: { name: string; get(): Promise<unknown>; reset(): void }): void {
  registry.registerMetric(metric as unknown as Metric);
}

export type SeriesCounter = {
  inc(values: readonly string[], amount?: number): void;
};

/** A Prometheus counter whose series are found by their label values in `labelNames` order. */
export function createSeriesCounter(registry: MetricRegistrar, described: Described): SeriesCounter {
  const series = new SeriesMap(described.labelNames, () => ({ total: 0 }));
  register(registry, {
    name: described.name,
    get: async () => exported(described, 'counter', series.entries().map(({ labels, value }) => ({ labels, value: value.total }))),
    reset: () => series.reset(),
  });
  return {
    inc(values, amount = 1) {
      series.of(values).total += amount;
    },
  };
}

export type SeriesGauge = {
  inc(values: readonly string[]): void;
  dec(values: readonly string[]): void;
};

/** A Prometheus gauge counted up and down, its series found by their label values. */
export function createSeriesGauge(registry: MetricRegistrar, described: Described): SeriesGauge {
  const series = new SeriesMap(described.labelNames, () => ({ current: 0 }));
  register(registry, {
    name: described.name,
    get: async () => exported(described, 'gauge', series.entries().map(({ labels, value }) => ({ labels, value: value.current }))),
    reset: () => series.reset(),
  });
  return {
    inc(values) {
      series.of(values).current += 1;
    },
    dec(values) {
      series.of(values).current -= 1;
    },
  };
}

export type SeriesHistogram = {
  observe(values: readonly string[], value: number): void;
};

/**
 * A Prometheus histogram with the given upper bounds (ascending); a series keeps a count per bucket,
 * made cumulative (`le`) at scrape time, with its sum and count.
 */
export function createSeriesHistogram(registry: MetricRegistrar, described: Described & { buckets: readonly number[] }): SeriesHistogram {
  const { buckets } = described;
  // One count per bound, and one more for values above the last (the `+Inf` bucket).
  const series = new SeriesMap(described.labelNames, () => ({ counts: new Float64Array(buckets.length + 1), sum: 0 }));
  register(registry, {
    name: described.name,
    get: async () => exported(described, 'histogram', series.entries().flatMap(({ labels, value }) => histogramLines(described.name, buckets, labels, value))),
    reset: () => series.reset(),
  });
  return {
    observe(values, value) {
      const found = series.of(values);
      let bucket = 0;
      while (bucket < buckets.length && value > buckets[bucket]!) bucket++;
      found.counts[bucket]! += 1;
      found.sum += value;
    },
  };
}

function histogramLines(
  name: string,
  buckets: readonly number[],
  labels: Record<string, string>,
  { counts, sum }: { counts: Float64Array; sum: number },
): ExportedValue[] {
  const lines: ExportedValue[] = [];
  let cumulative = 0;
  buckets.forEach((bound, index) => {
    cumulative += counts[index]!;
    lines.push({ metricName: `${name}_bucket`, labels: { le: String(bound), ...labels }, value: cumulative });
  });
  cumulative += counts[buckets.length]!;
  lines.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', ...labels }, value: cumulative });
  lines.push({ metricName: `${name}_sum`, labels, value: sum });
  lines.push({ metricName: `${name}_count`, labels, value: cumulative });
  return lines;
}

function exported(described: Described, type: 'counter' | 'gauge' | 'histogram', values: ExportedValue[]) {
  return { name: described.name, help: described.help, type, values, aggregator: 'sum' as const };
}
