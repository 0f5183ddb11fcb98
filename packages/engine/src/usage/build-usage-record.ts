import { scrubSecrets, type Protocol } from '@switchyard/core';
import type { Principal } from '../auth/authenticate';
import type { AttemptLog } from '../generation/attempt-log';
import type { RequestOutcome, UsageRecord } from './usage-record';

/** What is known about a request when its record is written. */
export type RecordFacts = {
  protocol: Protocol;
  requestId: string;
  startedAt: number;
  principal?: Principal | undefined;
  log?: AttemptLog;
  model?: string | undefined;
  stream?: boolean;
  status: number;
  outcome: RequestOutcome;
  errorCode?: string | undefined;
  costMicros?: number;
  firstByteAt?: number | undefined;
};

/** One usage record from the facts of a request, finished or refused. */
export function buildUsageRecord(facts: RecordFacts): UsageRecord {
  const { log } = facts;
  return {
    requestId: facts.requestId,
    startedAt: facts.startedAt,
    keyId: facts.principal?.key.id,
    accountId: facts.principal?.account.id,
    // The model is client text until a route matched it: never let a credential sent there reach a record.
    model: facts.model === undefined ? undefined : scrubSecrets(facts.model),
    protocol: facts.protocol,
    upstream: log?.target?.name,
    upstreamProtocol: log?.target?.codec.protocol,
    upstreamRequestId: log?.upstreamRequestId,
    stream: facts.stream ?? false,
    status: facts.status,
    outcome: facts.outcome,
    errorCode: facts.errorCode,
    finishReason: log?.finishReason,
    usage: log?.usage,
    costMicros: facts.costMicros ?? 0,
    attempts: log?.attempts ?? 0,
    latencyMs: Date.now() - facts.startedAt,
    timeToFirstByteMs: facts.firstByteAt === undefined ? undefined : facts.firstByteAt - facts.startedAt,
  };
}
