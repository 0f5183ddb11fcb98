import { ClientAbortedError, type FinishReason, type GatewayError, type Usage } from '@signalbox/core';
import type { UpstreamAnswer } from '../generation/generation-output';
import type { StreamOutcome } from '../generation/stream-observer';
import type { RequestOutcome } from '../usage/usage-record';

/** How a request ended: what its usage record says and what its hold is settled at. */
export type ExchangeEnding = {
  status: number;
  outcome: RequestOutcome;
  errorCode?: string | undefined;
  /** What is billed: the upstream's counts, an estimate, or nothing. */
  usage?: Usage | undefined;
  finishReason?: FinishReason | undefined;
  upstreamId?: string | undefined;
};

/** A JSON answer that reached the transport. */
export function endingOfJSONAnswer(answer: Extract<UpstreamAnswer, { kind: 'json' }>): ExchangeEnding {
  return {
    status: 200,
    outcome: outcomeOf(answer.finishReason, undefined),
    usage: answer.usage,
    finishReason: answer.finishReason,
    upstreamId: answer.upstreamId,
  };
}

/**
 * A stream that was piped to its end, failure or client abort. An upstream that reported no counts
 * (a Chat stream without `include_usage`) is billed on the estimate: the input estimated at admission
 * and the streamed characters / 4.
 */
export function endingOfStream(outcome: StreamOutcome, estimatedInputTokens: number): ExchangeEnding {
  const reported = outcome.usage;
  const counted = reported !== undefined && (reported.inputTokens !== undefined || reported.outputTokens !== undefined);
  return {
    status: 200,
    outcome: outcome.clientAborted ? 'client-aborted' : outcomeOf(outcome.finishReason, outcome.error),
    errorCode: outcome.error?.code,
    usage: counted ? reported : estimatedUsage(estimatedInputTokens, outcome.outputCharacters),
    finishReason: outcome.finishReason,
    upstreamId: outcome.upstreamId,
  };
}

/**
 * A request refused or failed before any answer reached the client (nothing is billed). One the
 * gateway's shutdown refused or ended (`SHUTTING_DOWN`) is `interrupted`, not an error of its own.
 */
export function endingOfFailure(error: GatewayError | ClientAbortedError): ExchangeEnding {
  if (ClientAbortedError.isInstance(error)) return { status: 499, outcome: 'client-aborted' };
  return { status: error.status, outcome: error.code === 'SHUTTING_DOWN' ? 'interrupted' : 'error', errorCode: error.code };
}

/**
 * The usage view's outcome for a finished generation; a stream the gateway's shutdown ended is
 * `interrupted`. An answer its upstream left unfinished (`pause_turn`) that reached the client as
 * sent is `incomplete`, like a cut one: its client continues it.
 */
export function outcomeOf(finishReason: FinishReason | undefined, error: GatewayError | undefined): RequestOutcome {
  if (error?.code === 'SHUTTING_DOWN') return 'interrupted';
  if (error || !finishReason) return 'failed';
  const { unified } = finishReason;
  if (unified === 'length' || unified === 'content-filter' || unified === 'error') return 'incomplete';
  return 'completed';
}

function estimatedUsage(inputTokens: number, outputCharacters: number): Usage {
  return {
    inputTokens,
    outputTokens: Math.ceil(outputCharacters / 4),
    cacheReadTokens: undefined,
    cacheWriteTokens: undefined,
    cacheWrite1hTokens: undefined,
    reasoningTokens: undefined,
    estimated: true,
  };
}
