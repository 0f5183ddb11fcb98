import type { BalanceEvent, UsageEntry, UsageSummaryRow } from '../usage/usage-ledger';

const units = (micros: number) => micros / 1_000_000;
const isoTime = (milliseconds: number) => new Date(milliseconds).toISOString();

/**
 * A ledger row as the admin API shows it: camelCase, `time` in ISO 8601, money in currency units
 * (like an account's `balance`: `cost`, `cacheSavings`) and exact micro-units; absent fields are `null`.
 */
export function presentUsageEntry(entry: UsageEntry) {
  return {
    time: isoTime(entry.time),
    requestId: entry.requestId,
    upstreamRequestId: entry.upstreamRequestId ?? null,
    accountId: entry.accountId ?? null,
    keyId: entry.keyId ?? null,
    keyPrefix: entry.keyPrefix ?? null,
    model: entry.model ?? null,
    upstream: entry.upstream ?? null,
    upstreamModel: entry.upstreamModel ?? null,
    upstreamCredential: entry.upstreamCredential ?? null,
    upstreamKind: entry.upstreamKind ?? null,
    protocol: entry.protocol,
    upstreamProtocol: entry.upstreamProtocol ?? null,
    stream: entry.stream,
    status: entry.status,
    outcome: entry.outcome,
    errorCode: entry.errorCode ?? null,
    finishReason: entry.finishReason ?? null,
    inputTokens: entry.inputTokens,
    outputTokens: entry.outputTokens,
    cacheReadTokens: entry.cacheReadTokens,
    cacheWriteTokens: entry.cacheWriteTokens,
    cacheWrite5mTokens: entry.cacheWrite5mTokens,
    cacheWrite1hTokens: entry.cacheWrite1hTokens,
    reasoningTokens: entry.reasoningTokens,
    estimated: entry.estimated,
    cost: units(entry.costMicros),
    costMicros: entry.costMicros,
    uncoveredMicros: entry.uncoveredMicros,
    cacheSavings: units(entry.cacheSavingsMicros),
    cacheSavingsMicros: entry.cacheSavingsMicros,
    latencyMs: entry.latencyMs,
    timeToFirstByteMs: entry.timeToFirstByteMs ?? null,
    attempts: entry.attempts,
    warnings: [...entry.warnings],
    traceId: entry.traceId ?? null,
  };
}

export type PresentedUsageEntry = ReturnType<typeof presentUsageEntry>;

/** One bucket of a usage summary: its start in ISO 8601, money in units and micro-units. */
export function presentUsageSummaryRow(row: UsageSummaryRow) {
  return {
    bucketStart: isoTime(row.bucketStart),
    group: row.group ?? null,
    requests: row.requests,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cacheReadTokens: row.cacheReadTokens,
    cacheWriteTokens: row.cacheWriteTokens,
    cost: units(row.costMicros),
    costMicros: row.costMicros,
    cacheSavings: units(row.cacheSavingsMicros),
    cacheSavingsMicros: row.cacheSavingsMicros,
    errors: row.errors,
    latencyP50Ms: row.latencyP50Ms,
    latencyP95Ms: row.latencyP95Ms,
  };
}

/** A top-up or other balance change, with the balance it left. */
export function presentBalanceEvent(event: BalanceEvent) {
  return {
    id: event.id,
    accountId: event.accountId,
    time: isoTime(event.time),
    kind: event.kind,
    delta: units(event.deltaMicros),
    deltaMicros: event.deltaMicros,
    balanceAfter: units(event.balanceAfterMicros),
    balanceAfterMicros: event.balanceAfterMicros,
  };
}
