import type { Settled } from '../store/account-store';
import type { UsageCommit, UsageEntry, UsageOutcome } from '../usage/usage-ledger';

/** The columns of a `usage` row, in the order the insert binds them. */
export const USAGE_COLUMNS = [
  'request_id',
  'time',
  'upstream_request_id',
  'account_id',
  'key_id',
  'key_prefix',
  'model',
  'upstream',
  'upstream_model',
  'protocol',
  'upstream_protocol',
  'stream',
  'status',
  'outcome',
  'error_code',
  'finish_reason',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'estimated',
  'cost_micros',
  'uncovered_micros',
  'latency_ms',
  'time_to_first_byte_ms',
  'attempts',
  'warnings',
  'trace_id',
  'cache_write_5m_tokens',
  'cache_write_1h_tokens',
  'cache_savings_micros',
  'upstream_credential',
  'upstream_kind',
] as const;

/** The values of a new `usage` row in `USAGE_COLUMNS` order: the commit's entry with the charge the store decided. */
export function usageRowValues(entry: UsageCommit['entry'], settled: Settled): Array<string | number | null> {
  const optional = (value: string | number | undefined) => value ?? null;
  const count = (value: number) => Math.max(0, Math.round(value));
  return [
    entry.requestId,
    Math.round(entry.time),
    optional(entry.upstreamRequestId),
    optional(entry.accountId),
    optional(entry.keyId),
    optional(entry.keyPrefix),
    optional(entry.model),
    optional(entry.upstream),
    optional(entry.upstreamModel),
    entry.protocol,
    optional(entry.upstreamProtocol),
    entry.stream ? 1 : 0,
    Math.round(entry.status),
    entry.outcome,
    optional(entry.errorCode),
    optional(entry.finishReason),
    count(entry.inputTokens),
    count(entry.outputTokens),
    count(entry.cacheReadTokens),
    count(entry.cacheWriteTokens),
    count(entry.reasoningTokens),
    entry.estimated ? 1 : 0,
    settled.chargedMicros,
    settled.uncoveredMicros,
    count(entry.latencyMs),
    entry.timeToFirstByteMs === undefined ? null : count(entry.timeToFirstByteMs),
    count(entry.attempts),
    entry.warnings.length > 0 ? JSON.stringify(entry.warnings) : null,
    optional(entry.traceId),
    count(entry.cacheWrite5mTokens),
    count(entry.cacheWrite1hTokens),
    Math.round(entry.cacheSavingsMicros),
    optional(entry.upstreamCredential),
    optional(entry.upstreamKind),
  ];
}

/** A fresh `UsageEntry` from a `usage` row; NULL columns become absent fields. */
export function toUsageEntry(row: Record<string, unknown>): UsageEntry {
  const text = (column: string) => (row[column] === null ? undefined : String(row[column]));
  const number = (column: string) => Number(row[column]);
  const optionalFields = {
    upstreamRequestId: text('upstream_request_id'),
    accountId: text('account_id'),
    keyId: text('key_id'),
    keyPrefix: text('key_prefix'),
    model: text('model'),
    upstream: text('upstream'),
    upstreamModel: text('upstream_model'),
    upstreamProtocol: text('upstream_protocol'),
    errorCode: text('error_code'),
    finishReason: text('finish_reason'),
    timeToFirstByteMs: row['time_to_first_byte_ms'] === null ? undefined : number('time_to_first_byte_ms'),
    traceId: text('trace_id'),
    upstreamCredential: text('upstream_credential'),
    upstreamKind: text('upstream_kind'),
  };
  const present = Object.fromEntries(Object.entries(optionalFields).filter(([, value]) => value !== undefined));
  return {
    requestId: String(row['request_id']),
    time: number('time'),
    ...present,
    protocol: String(row['protocol']),
    stream: number('stream') === 1,
    status: number('status'),
    outcome: String(row['outcome']) as UsageOutcome,
    inputTokens: number('input_tokens'),
    outputTokens: number('output_tokens'),
    cacheReadTokens: number('cache_read_tokens'),
    cacheWriteTokens: number('cache_write_tokens'),
    cacheWrite5mTokens: number('cache_write_5m_tokens'),
    cacheWrite1hTokens: number('cache_write_1h_tokens'),
    reasoningTokens: number('reasoning_tokens'),
    estimated: number('estimated') === 1,
    costMicros: number('cost_micros'),
    uncoveredMicros: number('uncovered_micros'),
    cacheSavingsMicros: number('cache_savings_micros'),
    latencyMs: number('latency_ms'),
    attempts: number('attempts'),
    warnings: row['warnings'] === null ? [] : (JSON.parse(String(row['warnings'])) as string[]),
  };
}
