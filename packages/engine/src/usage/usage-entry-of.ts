import type { UsageCommit } from '@signalbox/accounts';
import { splitInputTokens } from './compute-cost';
import type { UsageRecord } from './usage-record';

/**
 * The ledger row of a request, from its usage record: the same facts, token counts the upstream did
 * not report as 0, and absent fields left out. The charge is not part of it: the store decides it
 * in the transaction that writes the row.
 */
export function usageEntryOf(record: UsageRecord): UsageCommit['entry'] {
  const optional = {
    upstreamRequestId: record.upstreamRequestId,
    accountId: record.accountId,
    keyId: record.keyId,
    keyPrefix: record.keyPrefix,
    model: record.model,
    upstream: record.upstream,
    upstreamCredential: record.upstreamCredential,
    upstreamKind: record.upstreamKind,
    upstreamModel: record.upstreamModel,
    upstreamProtocol: record.upstreamProtocol,
    errorCode: record.errorCode,
    finishReason: record.finishReason?.unified,
    timeToFirstByteMs: record.timeToFirstByteMs,
    traceId: record.traceId,
  };
  const usage = record.usage;
  const lifetimes = usage ? splitInputTokens(usage) : { cacheWrite5m: 0, cacheWrite1h: 0 };
  return {
    requestId: record.requestId,
    time: record.startedAt,
    ...definedFields(optional),
    protocol: record.protocol,
    stream: record.stream,
    status: record.status,
    outcome: record.outcome,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    cacheWrite5mTokens: lifetimes.cacheWrite5m,
    cacheWrite1hTokens: lifetimes.cacheWrite1h,
    reasoningTokens: usage?.reasoningTokens ?? 0,
    estimated: record.estimated,
    cacheSavingsMicros: record.cacheSavingsMicros,
    latencyMs: record.latencyMs,
    attempts: record.attempts,
    warnings: record.warnings,
  };
}

/** The fields whose value is not `undefined`, in their order (a loop: no array of entries per request). */
function definedFields<Fields extends Record<string, unknown>>(fields: Fields): Partial<Fields> {
  const defined: Partial<Fields> = {};
  for (const name in fields) if (fields[name] !== undefined) defined[name] = fields[name];
  return defined;
}
