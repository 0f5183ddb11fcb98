import { GatewayError } from '@signalbox/core';
import type {
  AffinityOutcome,
  AttemptEnding,
  AttemptStart,
  AttemptWatcher,
  EngineObserver,
  ExchangeWatcher,
  HealthMark,
  LedgerBatch,
  ObservedEnding,
  UsageRecord,
} from '@signalbox/engine';
import type { Instruments } from './create-instruments';
import type { LabelValues } from './label-values';

export type MetricsObserverOptions = {
  instruments: Instruments;
  labels: LabelValues;
  /** Whether tokens and cost carry the `group` label. */
  groupLabel: boolean;
  /** A monotonic clock in milliseconds, for upstream attempt durations. */
  now(): number;
};

/**
 * The engine observer that keeps the push metrics: it counts each request once, when it settles
 * (the one place every ending goes through), and its tokens and cost once the ledger has them, so
 * the counters add up to the ledger's rows. Every label value goes through `labels`.
 */
export function createMetricsObserver(options: MetricsObserverOptions): EngineObserver {
  const { instruments, labels } = options;
  return {
    watchExchange: start => new ExchangeMetrics(options, start.protocol),
    ledgerBatchCommitted: (batch: LedgerBatch) => {
      const result = batch.committed ? 'committed' : 'given_up';
      instruments.ledgerBatchDuration.observe([result], batch.durationMs / 1000);
      instruments.ledgerRows.inc([result], batch.rows);
    },
    upstreamHealthChanged: (mark: HealthMark) => {
      instruments.healthEvents.inc([labels.upstream(mark.upstream), labels.credential(mark.credential), HEALTH_EVENTS[mark.kind]]);
    },
    sessionAffinity: (outcome: AffinityOutcome) => {
      instruments.affinity.inc([outcome.result]);
      if (outcome.result === 'moved') instruments.affinityMoves.inc([labels.upstream(outcome.from.upstream), outcome.reason.replaceAll('-', '_')]);
    },
  };
}

/** One exchange's metrics: an object of fixed shape per request, its hooks shared by all. */
class ExchangeMetrics implements ExchangeWatcher {
  private readonly byInterface: readonly string[];
  private streaming = false;
  private previousUpstream: string | undefined;
  /** The route (and group) labels of tokens and cost, set when the request settles (always before `recorded`). */
  private chargeLabels = NO_LABELS;

  constructor(
    private readonly options: MetricsObserverOptions,
    private readonly protocol: string,
  ) {
    this.byInterface = [protocol];
    options.instruments.requestsInFlight.inc(this.byInterface);
  }

  attemptStarted(attempt: AttemptStart): AttemptWatcher {
    const { labels } = this.options;
    countAttemptStart(this.options, attempt, this.previousUpstream);
    this.previousUpstream = attempt.upstream;
    return new AttemptMetrics(this.options, labels.upstream(attempt.upstream), labels.credential(attempt.credential));
  }

  responseStarted(kind: 'json' | 'stream'): void {
    if (kind !== 'stream') return;
    this.streaming = true;
    this.options.instruments.streamsInFlight.inc(this.byInterface);
  }

  settled({ record, route, group }: ObservedEnding): void {
    const { instruments, labels } = this.options;
    instruments.requestsInFlight.dec(this.byInterface);
    if (this.streaming) instruments.streamsInFlight.dec(this.byInterface);
    const routeLabel = labels.route(route);
    this.chargeLabels = this.options.groupLabel ? [routeLabel, labels.group(group)] : [routeLabel];
    countSettled(this.options, record, this.protocol, routeLabel);
    instruments.ledgerQueue.inc(NO_LABELS);
  }

  recorded(record: UsageRecord): void {
    this.options.instruments.ledgerQueue.dec(NO_LABELS);
    countCharge(this.options.instruments, record, this.chargeLabels);
  }
}

/** One upstream attempt's count and duration, timed from its start. */
class AttemptMetrics implements AttemptWatcher {
  private readonly startedAt: number;

  constructor(
    private readonly options: MetricsObserverOptions,
    private readonly upstream: string,
    private readonly credential: string,
  ) {
    this.startedAt = options.now();
  }

  ended(ending: AttemptEnding): void {
    const { instruments, labels } = this.options;
    const served = ending.kind === 'served';
    const result = served ? 'served' : 'failed';
    const code = labels.code(served ? ending.record.errorCode : errorCodeOf(ending.error));
    instruments.attempts.inc([this.upstream, result, code]);
    instruments.credentialAttempts.inc([this.upstream, this.credential, result]);
    instruments.attemptDuration.observe([this.upstream, result], (this.options.now() - this.startedAt) / 1000);
  }
}

function countAttemptStart(options: MetricsObserverOptions, attempt: AttemptStart, previousUpstream: string | undefined): void {
  if (!attempt.after) return;
  const { instruments, labels } = options;
  const reason = labels.code(attempt.after.errorCode);
  if (attempt.after.failover) {
    instruments.failovers.inc([labels.upstream(previousUpstream), labels.upstream(attempt.upstream), reason]);
  } else {
    instruments.retries.inc([labels.upstream(attempt.upstream), reason]);
  }
}

function countSettled(options: MetricsObserverOptions, record: UsageRecord, protocol: string, route: string): void {
  const { instruments, labels } = options;
  const code = labels.code(record.errorCode);
  instruments.requests.inc([protocol, route, labels.upstream(record.upstream), String(record.status), record.outcome, code]);
  instruments.requestDuration.observe([protocol, route, record.outcome], record.latencyMs / 1000);
  if (record.timeToFirstByteMs !== undefined) {
    instruments.timeToFirstByte.observe([protocol, route], record.timeToFirstByteMs / 1000);
  }
  if (labels.isLimiterCode(record.errorCode)) instruments.limiterRefusals.inc([protocol, code]);
}

function countCharge(instruments: Instruments, record: UsageRecord, chargeLabels: readonly string[]): void {
  const { usage } = record;
  if (usage) {
    countTokens(instruments, chargeLabels, 'input', usage.inputTokens);
    countTokens(instruments, chargeLabels, 'output', usage.outputTokens);
    countTokens(instruments, chargeLabels, 'cache_read', usage.cacheReadTokens);
    countTokens(instruments, chargeLabels, 'cache_write', usage.cacheWriteTokens);
  }
  if (record.costMicros > 0) instruments.cost.inc(chargeLabels, record.costMicros);
  if (record.uncoveredMicros > 0) instruments.uncoveredCost.inc(chargeLabels, record.uncoveredMicros);
}

function countTokens(instruments: Instruments, chargeLabels: readonly string[], kind: string, tokens: number | undefined): void {
  if (tokens) instruments.tokens.inc([...chargeLabels, kind], tokens);
}

const NO_LABELS: readonly string[] = [];

/** The `event` label of each kind of health change. */
const HEALTH_EVENTS: Record<HealthMark['kind'], string> = {
  cooldown: 'cooldown',
  disabled: 'disabled',
  enabled: 'enabled',
  'circuit-open': 'circuit_open',
  'circuit-closed': 'circuit_closed',
};

/** A failed attempt's service code; a client abort (`ClientAbortedError`) has none. */
function errorCodeOf(error: unknown): string | undefined {
  return GatewayError.isInstance(error) ? error.code : undefined;
}
