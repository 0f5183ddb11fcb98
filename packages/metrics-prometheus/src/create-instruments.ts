import { createSeriesCounter, createSeriesGauge, createSeriesHistogram, type MetricRegistrar } from './series-metrics';

/** Request and first-byte latencies, in seconds: from a cached answer to a long agent turn. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Ledger batch commits, in seconds: a local write to a database that retries. */
const LEDGER_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Every push metric the observer updates, registered on `registry`. The names and labels are the
 * contract a dashboard and alert rules rely on: docs/operations.md lists them. Each update passes
 * its label values in `labelNames` order.
 */
export function createInstruments(registry: MetricRegistrar, options: { groupLabel: boolean }) {
  const byGroup = options.groupLabel ? (['route', 'group'] as const) : (['route'] as const);
  return {
    requests: createSeriesCounter(registry, {
      name: 'signalbox_requests_total',
      help: 'Requests settled, refusals included, by interface, route, upstream, HTTP status, outcome and service code.',
      labelNames: ['interface', 'route', 'upstream', 'status', 'outcome', 'code'] as const,
    }),
    requestsInFlight: createSeriesGauge(registry, {
      name: 'signalbox_requests_in_flight',
      help: 'Requests started and not yet settled, by interface.',
      labelNames: ['interface'] as const,
    }),
    streamsInFlight: createSeriesGauge(registry, {
      name: 'signalbox_streams_in_flight',
      help: 'Streamed answers committed to the client and not yet ended, by interface.',
      labelNames: ['interface'] as const,
    }),
    requestDuration: createSeriesHistogram(registry, {
      name: 'signalbox_request_duration_seconds',
      help: 'Whole request time, from arrival to the last byte of the answer, by interface, route and outcome.',
      labelNames: ['interface', 'route', 'outcome'] as const,
      buckets: REQUEST_BUCKETS,
    }),
    timeToFirstByte: createSeriesHistogram(registry, {
      name: 'signalbox_time_to_first_byte_seconds',
      help: 'Time from arrival to the first byte of the answer sent to the client, by interface and route.',
      labelNames: ['interface', 'route'] as const,
      buckets: REQUEST_BUCKETS,
    }),
    attemptDuration: createSeriesHistogram(registry, {
      name: 'signalbox_upstream_attempt_duration_seconds',
      help: 'One upstream call, from its start to the end of the answer it served or to its failure, by upstream and result.',
      labelNames: ['upstream', 'result'] as const,
      buckets: REQUEST_BUCKETS,
    }),
    attempts: createSeriesCounter(registry, {
      name: 'signalbox_upstream_attempts_total',
      help: 'Upstream calls by upstream, result (served or failed) and the service code of a failure.',
      labelNames: ['upstream', 'result', 'code'] as const,
    }),
    retries: createSeriesCounter(registry, {
      name: 'signalbox_upstream_retries_total',
      help: 'Attempts that retried the same upstream, by upstream and the service code of the failure that led to them.',
      labelNames: ['upstream', 'reason'] as const,
    }),
    failovers: createSeriesCounter(registry, {
      name: 'signalbox_upstream_failovers_total',
      help: 'Attempts that moved to the next upstream of the route, by the upstream left, the one tried and the reason.',
      labelNames: ['from', 'to', 'reason'] as const,
    }),
    credentialAttempts: createSeriesCounter(registry, {
      name: 'signalbox_upstream_credential_attempts_total',
      help: 'Upstream calls by upstream, the credential they used (none when no credential could take one) and result (served or failed).',
      labelNames: ['upstream', 'credential', 'result'] as const,
    }),
    healthEvents: createSeriesCounter(registry, {
      name: 'signalbox_upstream_health_events_total',
      help: "Changes of upstream health this instance learned, by upstream, credential (none for the upstream's own circuit) and event: cooldown, disabled, enabled, circuit_open, circuit_closed.",
      labelNames: ['upstream', 'credential', 'event'] as const,
    }),
    affinity: createSeriesCounter(registry, {
      name: 'signalbox_affinity_requests_total',
      help: 'Served requests of routes that keep conversations on a credential, by result: kept (its credential served), new (it had none), moved (its credential could not serve it).',
      labelNames: ['result'] as const,
    }),
    affinityMoves: createSeriesCounter(registry, {
      name: 'signalbox_affinity_moves_total',
      help: 'Conversations moved by force off the credential they kept, by the upstream they left and the reason: cooling_down, disabled, circuit_open, failed.',
      labelNames: ['upstream', 'reason'] as const,
    }),
    limiterRefusals: createSeriesCounter(registry, {
      name: 'signalbox_limiter_refusals_total',
      help: 'Requests refused by a per-key limit (rate, tokens, concurrency, queue, quota) or an unreachable limiter, by interface and code.',
      labelNames: ['interface', 'code'] as const,
    }),
    tokens: createSeriesCounter(registry, {
      name: 'signalbox_tokens_total',
      help: 'Tokens of settled requests as recorded in the ledger, by route, (account group,) and kind: input, output, cache_read, cache_write.',
      labelNames: [...byGroup, 'kind'] as const,
    }),
    cost: createSeriesCounter(registry, {
      name: 'signalbox_cost_micros_total',
      help: 'What accounts were charged, in micro-units of the currency (1 000 000 = 1), by route (and account group).',
      labelNames: byGroup,
    }),
    uncoveredCost: createSeriesCounter(registry, {
      name: 'signalbox_uncovered_cost_micros_total',
      help: 'Cost not charged because it exceeded the hold or the hold was gone, in micro-units, by route (and account group).',
      labelNames: byGroup,
    }),
    ledgerQueue: createSeriesGauge(registry, {
      name: 'signalbox_ledger_queue_depth',
      help: 'Settled requests whose ledger row and charge are not committed yet.',
      labelNames: [],
    }),
    ledgerBatchDuration: createSeriesHistogram(registry, {
      name: 'signalbox_ledger_batch_duration_seconds',
      help: 'Ledger batch commits, retries included, by result (committed or given_up).',
      labelNames: ['result'] as const,
      buckets: LEDGER_BUCKETS,
    }),
    ledgerRows: createSeriesCounter(registry, {
      name: 'signalbox_ledger_rows_total',
      help: 'Ledger rows by batch result: committed, or given_up after the retries (not written, not charged).',
      labelNames: ['result'] as const,
    }),
  };
}

export type Instruments = ReturnType<typeof createInstruments>;
