import { GatewayError } from '@switchyard/core';
import type {
  AttemptStart,
  AttemptWatcher,
  EngineObserver,
  ExchangeWatcher,
  LedgerBatch,
  UsageRecord,
} from '@switchyard/engine';
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
      instruments.ledgerBatchDuration.observe({ result }, batch.durationMs / 1000);
      instruments.ledgerRows.inc({ result }, batch.rows);
    },
  };

  function watchExchange(protocol: string): ExchangeWatcher {
    instruments.requestsInFlight.inc({ interface: protocol });
    let streaming = false;
    let previousUpstream: string | undefined;
    let routeLabels: { route: string; group?: string } = { route: labels.route(undefined) };
    return {
      attemptStarted(attempt) {
        countAttemptStart(attempt, previousUpstream);
        previousUpstream = attempt.upstream;
        return watchAttempt(labels.upstream(attempt.upstream));
      },
      responseStarted(kind) {
        if (kind !== 'stream') return;
        streaming = true;
        instruments.streamsInFlight.inc({ interface: protocol });
      },
      settled({ record, route, group }) {
        instruments.requestsInFlight.dec({ interface: protocol });
        if (streaming) instruments.streamsInFlight.dec({ interface: protocol });
        routeLabels = { route: labels.route(route), ...(options.groupLabel && { group: labels.group(group) }) };
        countSettled(record, protocol, routeLabels.route);
        instruments.ledgerQueue.inc();
      },
      recorded(record) {
        instruments.ledgerQueue.dec();
        countCharge(record, routeLabels);
      },
    };
  }

  function countAttemptStart(attempt: AttemptStart, previousUpstream: string | undefined): void {
    if (!attempt.after) return;
    const reason = labels.code(attempt.after.errorCode);
    if (attempt.after.failover) {
      instruments.failovers.inc({
        from: labels.upstream(previousUpstream),
        to: labels.upstream(attempt.upstream),
        reason,
      });
    } else {
      instruments.retries.inc({ upstream: labels.upstream(attempt.upstream), reason });
    }
  }

  function watchAttempt(upstream: string): AttemptWatcher {
    const startedAt = options.now();
    return {
      ended(ending) {
        const result = ending.kind === 'served' ? 'served' : 'failed';
        const code =
          ending.kind === 'served'
            ? labels.code(ending.record.errorCode)
            : labels.code(errorCodeOf(ending.error));
        instruments.attempts.inc({ upstream, result, code });
        instruments.attemptDuration.observe({ upstream, result }, (options.now() - startedAt) / 1000);
      },
    };
  }

  function countSettled(record: UsageRecord, protocol: string, route: string): void {
    const code = labels.code(record.errorCode);
    instruments.requests.inc({
      interface: protocol,
      route,
      upstream: labels.upstream(record.upstream),
      status: String(record.status),
      outcome: record.outcome,
      code,
    });
    instruments.requestDuration.observe(
      { interface: protocol, route, outcome: record.outcome },
      record.latencyMs / 1000,
    );
    if (record.timeToFirstByteMs !== undefined) {
      instruments.timeToFirstByte.observe({ interface: protocol, route }, record.timeToFirstByteMs / 1000);
    }
    if (labels.isLimiterCode(record.errorCode))
      instruments.limiterRefusals.inc({ interface: protocol, code });
  }

  function countCharge(record: UsageRecord, routeLabels: { route: string; group?: string }): void {
    const { usage } = record;
    if (usage) {
      const kinds = {
        input: usage.inputTokens,
        output: usage.outputTokens,
        cache_read: usage.cacheReadTokens,
        cache_write: usage.cacheWriteTokens,
      };
      for (const [kind, tokens] of Object.entries(kinds)) {
        if (tokens) instruments.tokens.inc({ ...routeLabels, kind }, tokens);
      }
    }
    if (record.costMicros > 0) instruments.cost.inc(routeLabels, record.costMicros);
    if (record.uncoveredMicros > 0) instruments.uncoveredCost.inc(routeLabels, record.uncoveredMicros);
  }
}

/** A failed attempt's service code; a client abort (`ClientAbortedError`) has none. */
function errorCodeOf(error: unknown): string | undefined {
  return GatewayError.isInstance(error) ? error.code : undefined;
}
