import { boundClientText, type SecretRecogniser } from '@signalbox/core';
import type { ExchangeEnding } from '../exchange/exchange-ending';
import { recordedProtocolOf, type ExchangeState } from '../exchange/exchange-state';
import type { Charge } from '../admission/admit-request';
import type { UsageRecord } from './usage-record';

/**
 * The one usage record of a request, from what the exchange learned and how it ended. Its strings
 * the client chose (a model no route has, the flags in its warnings) are scrubbed by `secrets`:
 * the record becomes a ledger row, a log line and span attributes, none of which may hold a secret.
 */
export function buildUsageRecord(state: ExchangeState, ending: ExchangeEnding, charge: Charge, now: number, secrets: SecretRecogniser): UsageRecord {
  const { attempt } = state;
  return {
    requestId: state.requestId,
    startedAt: state.startedAt,
    keyId: state.principal?.key.id,
    keyPrefix: state.principal?.key.prefix,
    accountId: state.principal?.account.id,
    // A matched route's model is a configured ID. Until a route matched it, the model is client text:
    // never let a credential, or a prompt pasted there, reach a record beyond a model ID's length.
    model: state.route ?? (state.model === undefined ? undefined : boundClientText(state.model, undefined, secrets)),
    protocol: recordedProtocolOf(state),
    upstream: attempt?.target?.name,
    upstreamCredential: attempt?.credential?.name,
    upstreamKind: attempt?.target?.kindName,
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
    cacheSavingsMicros: charge.cacheSavingsMicros,
    attempts: attempt?.attempts ?? 0,
    latencyMs: now - state.startedAt,
    timeToFirstByteMs: state.firstByteAt === undefined ? undefined : state.firstByteAt - state.startedAt,
    warnings: attempt === undefined ? [] : scrubEach(attempt.warnings, secrets),
    ...(state.watcher?.traceId !== undefined && { traceId: state.watcher.traceId }),
  };
}

/** The list with each entry scrubbed; the same list (nothing allocated) when no entry held a secret. */
function scrubEach(texts: readonly string[], secrets: SecretRecogniser): readonly string[] {
  for (let index = 0; index < texts.length; index += 1) {
    if (secrets.scrub(texts[index]!) !== texts[index]) return texts.map(text => secrets.scrub(text));
  }
  return texts;
}
