import { GatewayError } from '@signalbox/core';
import type {
  AffinityOutcome,
  AttemptStart,
  AttemptWatcher,
  EngineObserver,
  ExchangeWatcher,
  HealthMark,
  LedgerBatch,
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
    watchExchange: start => watchExchange(start.protocol),
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

  function watchExchange(protocol: string): ExchangeWatcher {
    const byInterface = [protocol];
    instruments.requestsInFlight.inc(byInterface);
    let streaming = false;
    let previousUpstream: string | undefined;
    /** The route (and group) labels of tokens and cost, set when the request settles (always before `recorded`). */
    let chargeLabels = NO_LABELS;
    return {
      attemptStarted(attempt) {
        countAttemptStart(attempt, previousUpstream);
        previousUpstream = attempt.upstream;
        return watchAttempt(labels.upstream(attempt.upstream), labels.credential(attempt.credential));
      },
      responseStarted(kind) {
        if (kind !== 'stream') return;
        streaming = true;
        instruments.streamsInFlight.inc(byInterface);
      },
      settled({ record, route, group }) {
        instruments.requestsInFlight.dec(byInterface);
        if (streaming) instruments.streamsInFlight.dec(byInterface);
        const routeLabel = labels.route(route);
        chargeLabels = options.groupLabel ? [routeLabel, labels.group(group)] : [routeLabel];
        countSettled(record, protocol, routeLabel);
        instruments.ledgerQueue.inc(NO_LABELS);
      },
      recorded(record) {
        instruments.ledgerQueue.dec(NO_LABELS);
        countCharge(record, chargeLabels);
      },
    };
  }

  function countAttemptStart(attempt: AttemptStart, previousUpstream: string | undefined): void {
    if (!attempt.after) return;
    const reason = labels.code(attempt.after.errorCode);
    if (attempt.after.failover) {
      instruments.failovers.inc([labels.upstream(previousUpstream), labels.upstream(attempt.upstream), reason]);
    } else {
      instruments.retries.inc([labels.upstream(attempt.upstream), reason]);
    }
  }

  function watchAttempt(upstream: string, credential: string): AttemptWatcher {
    const startedAt = options.now();
    return {
      ended(ending) {
        const served = ending.kind === 'served';
        const result = served ? 'served' : 'failed';
        const code = labels.code(served ? ending.record.errorCode : errorCodeOf(ending.error));
        instruments.attempts.inc([upstream, result, code]);
        instruments.credentialAttempts.inc([upstream, credential, result]);
        instruments.attemptDuration.observe([upstream, result], (options.now() - startedAt) / 1000);
      },
    };
  }

  function countSettled(record: UsageRecord, protocol: string, route: string): void {
    const code = labels.code(record.errorCode);
    instruments.requests.inc([protocol, route, labels.upstream(record.upstream), String(record.status), record.outcome, code]);
    instruments.requestDuration.observe([protocol, route, record.outcome], record.latencyMs / 1000);
    if (record.timeToFirstByteMs !== undefined) {
      instruments.timeToFirstByte.observe([protocol, route], record.timeToFirstByteMs / 1000);
    }
    if (labels.isLimiterCode(record.errorCode)) instruments.limiterRefusals.inc([protocol, code]);
  }

  function countCharge(record: UsageRecord, chargeLabels: readonly string[]): void {
    const { usage } = record;
    if (usage) {
      countTokens(chargeLabels, 'input', usage.inputTokens);
      countTokens(chargeLabels, 'output', usage.outputTokens);
      countTokens(chargeLabels, 'cache_read', usage.cacheReadTokens);
      countTokens(chargeLabels, 'cache_write', usage.cacheWriteTokens);
    }
    if (record.costMicros > 0) instruments.cost.inc(chargeLabels, record.costMicros);
    if (record.uncoveredMicros > 0) instruments.uncoveredCost.inc(chargeLabels, record.uncoveredMicros);
  }

  function countTokens(chargeLabels: readonly string[], kind: string, tokens: number | undefined): void {
    if (tokens) instruments.tokens.inc([...chargeLabels, kind], tokens);
  }
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
