import type { Engine } from '@signalbox/engine';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { LabelValues } from './label-values';
import { registerHealthGauges } from './register-health-gauges';

/** The longest a scrape waits for the store's hold totals before it reports the last ones it had. */
export const DEFAULT_HOLD_TOTALS_TIMEOUT_MS = 1000;

/** The store's holds now (`AccountStore.holdTotals`). */
export type HoldTotals = { count: number; amountMicros: number; earliestExpiresAt: number | undefined };

/** One upstream client's connections now (the engine's `upstreamStats()` values). */
export type UpstreamConnectionStats = ReturnType<Engine['upstreamStats']>[string];

/** Each upstream's health now (the engine's `upstreamHealth()`). */
export type UpstreamHealth = ReturnType<Engine['upstreamHealth']>;

/**
 * Where the pull gauges read from at scrape time, given once the engine and the store exist
 * (after the observer was handed to the engine): `metrics.watch({ ... })`.
 */
export type MetricSources = {
  /** `engine.upstreamStats`. */
  upstreamStats?: () => Record<string, UpstreamConnectionStats>;
  /** `engine.upstreamHealth`. */
  upstreamHealth?: () => UpstreamHealth;
  /** `store.holdTotals`, bound to the store. */
  holdTotals?: () => Promise<HoldTotals>;
  /** `gateway.webSocketStats`: the WebSocket connections of Responses' WebSocket mode. */
  webSocketStats?: () => WebSocketStats;
};

/** The WebSocket connections now: open, closed so far, and the responses the closed ones served. */
export type WebSocketStats = { open: number; closed: number; closedResponses: number };

/**
 * The gauges read at scrape time through `collect()` callbacks (no timers): upstream connections
 * and the store's holds. A hold read that fails or takes longer than `holdTimeoutMs` leaves the
 * gauges at the last values read and counts a failure, so a slow database never stalls a scrape.
 */
export function registerPullGauges(
  registry: Registry,
  options: { labels: LabelValues; holdTimeoutMs: number; sources: () => MetricSources },
): void {
  const registers = [registry];
  const { labels, sources } = options;
  const perUpstream = (name: string, help: string, read: (stats: UpstreamConnectionStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['upstream'] as const,
      registers,
      collect() {
        const stats = sources().upstreamStats?.() ?? {};
        this.reset();
        for (const [upstream, values] of Object.entries(stats))
          this.set({ upstream: labels.upstream(upstream) }, read(values));
      },
    });
  perUpstream(
    'signalbox_upstream_connections_open',
    'Open connections to each upstream, idle ones included.',
    stats => stats.connected,
  );
  perUpstream(
    'signalbox_upstream_connections_in_use',
    'Connections to each upstream carrying a request now.',
    stats => stats.inUse,
  );
  perUpstream(
    'signalbox_upstream_requests_queued',
    'Requests waiting for a connection to each upstream because all of its connections are in use.',
    stats => stats.queued,
  );

  registerHealthGauges(registers, labels, () => sources().upstreamHealth?.() ?? []);
  registerWebSocketGauges(registers, () => sources().webSocketStats?.());

  const readHolds = sharedHoldRead(sources, options.holdTimeoutMs, () => holdFailures.inc());
  const holdFailures = new Counter({
    name: 'signalbox_holds_read_failures_total',
    help: 'Scrapes whose hold totals could not be read in time (the hold gauges then keep their last values).',
    registers,
    // Waits for the scrape's read, so a failure shows in the scrape it happened in.
    async collect() {
      await readHolds();
    },
  });
  const holdGauge = (name: string, help: string, read: (totals: HoldTotals) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const totals = await readHolds();
        if (totals) this.set(read(totals));
      },
    });
  holdGauge(
    'signalbox_holds_outstanding',
    'Balance holds of requests in flight (not yet charged or released).',
    totals => totals.count,
  );
  holdGauge(
    'signalbox_holds_amount_micros',
    'What the outstanding holds add up to, in micro-units.',
    totals => totals.amountMicros,
  );
  holdGauge(
    'signalbox_holds_earliest_expiry_timestamp_seconds',
    'Unix time at which the first outstanding hold expires; 0 when there is none. In the past means a hold outlived its expiry.',
    totals => (totals.earliestExpiresAt === undefined ? 0 : totals.earliestExpiresAt / 1000),
  );
}

/**
 * One read of the store's holds shared by the three hold gauges of a scrape (the registry collects
 * them concurrently): a read in progress is joined, and a new one starts once it has settled.
 * Resolves `undefined` when the read fails or times out, counted once.
 */
function sharedHoldRead(sources: () => MetricSources, timeoutMs: number, onFailure: () => void) {
  let pending: Promise<HoldTotals | undefined> | undefined;
  return (): Promise<HoldTotals | undefined> => {
    const read = sources().holdTotals;
    if (!read) return Promise.resolve(undefined);
    pending ??= withTimeout(Promise.resolve().then(read), timeoutMs)
      .catch(() => {
        onFailure();
        return undefined;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}

function withTimeout<Value>(promise: Promise<Value>, ms: number): Promise<Value> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The WebSocket connections of Responses' WebSocket mode, read at scrape time: open now, and the
 * connections closed and the responses they served (their ratio is the responses per connection).
 */
function registerWebSocketGauges(registers: Registry[], read: () => WebSocketStats | undefined): void {
  const gauge = (name: string, help: string, value: (stats: WebSocketStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const stats = read();
        if (stats) this.set(value(stats));
      },
    });
  gauge('signalbox_websocket_connections_open', 'WebSocket connections open now (Responses over WebSocket).', stats => stats.open);
  gauge('signalbox_websocket_connections_closed', 'WebSocket connections closed since start.', stats => stats.closed);
  gauge(
    'signalbox_websocket_connection_responses',
    'Responses served by the WebSocket connections closed since start (divided by the closed connections: responses per connection).',
    stats => stats.closedResponses,
  );
}
