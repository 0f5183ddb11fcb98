import { boundClientText, scrubSecrets } from '@signalbox/core';
import type { ExchangeEnding } from '../exchange/exchange-ending';
import type { ExchangeState } from '../exchange/exchange-state';
import type { Charge } from '../admission/admit-request';
import type { UsageRecord } from './usage-record';

/** The one usage record of a request, from what the exchange learned and how it ended. */
export function buildUsageRecord(state: ExchangeState, ending: ExchangeEnding, charge: Charge, now: number): UsageRecord {
  const { attempt } = state;
  return {
    requestId: state.requestId,
    startedAt: state.startedAt,
    keyId: state.principal?.key.id,
    keyPrefix: state.principal?.key.prefix,
    accountId: state.principal?.account.id,
    // The model is client text until a route matched it: never let a credential, or a prompt pasted
    // there, reach a record (and the log line made from it) beyond a model ID's length.
    model: state.model === undefined ? undefined : boundClientText(scrubSecrets(state.model)),
    protocol: state.protocol,
    upstream: attempt?.target?.name,
    upstreamModel: attempt?.model,
    upstreamProtocol: attempt?.target?.codec.protocol,
    upstreamRequestId: attempt?.upstreamRequestId,
    stream: state.stream ?? false,
    status: ending.status,
    outcome: ending.outcome,
    errorCode: ending.errorCode,
    finishReason: ending.finishReason,
    usage: ending.usage,
    estimated: ending.usage?.estimated === true,
    costMicros: charge.costMicros,
    uncoveredMicros: charge.uncoveredMicros,
    attempts: attempt?.attempts ?? 0,
    latencyMs: now - state.startedAt,
    timeToFirstByteMs: state.firstByteAt === undefined ? undefined : state.firstByteAt - state.startedAt,
    warnings: attempt?.warnings ?? [],
    ...(state.watcher?.traceId !== undefined && { traceId: state.watcher.traceId }),
  };
}
