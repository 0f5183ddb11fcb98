import type { UsageRecord } from '@signalbox/engine';

/** The usage record as logged: counts and ids, never prompt text or keys. */
export function summarizeUsageRecord(record: UsageRecord) {
  return {
    requestId: record.requestId,
    model: record.model,
    protocol: record.protocol,
    upstream: record.upstream,
    status: record.status,
    outcome: record.outcome,
    errorCode: record.errorCode,
    inputTokens: record.usage?.inputTokens,
    outputTokens: record.usage?.outputTokens,
    costMicros: record.costMicros,
    // Cost the hold did not cover (an upstream past its output cap): billed to nobody, so shown to the admin.
    uncoveredMicros: record.uncoveredMicros,
    latencyMs: record.latencyMs,
    timeToFirstByteMs: record.timeToFirstByteMs,
  };
}
