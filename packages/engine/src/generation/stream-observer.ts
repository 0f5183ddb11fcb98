import type { FinishReason, GatewayError, StreamEvent, Usage } from '@signalbox/core';

/** How a streamed answer ended, as far as billing and the usage record need to know. */
export type StreamOutcome = {
  upstreamId: string | undefined;
  finishReason: FinishReason | undefined;
  /** The upstream's counts, when it reported them. */
  usage: Usage | undefined;
  /** The failure the stream ended with (sent to the client as its protocol's terminal error). */
  error: GatewayError | undefined;
  /** Characters of text, refusal, reasoning and tool arguments streamed (for an estimate without usage). */
  outputCharacters: number;
  /** The client went away before the end. */
  clientAborted: boolean;
  /** The gateway ended the stream itself (its shutdown, the request's deadline); `error` says which. */
  interrupted: boolean;
};

/** Gathers a stream's outcome as its events pass. Constant size. */
export type StreamObserver = {
  terminated: boolean;
  observe(events: readonly StreamEvent[]): readonly StreamEvent[];
  outcome(clientAborted: boolean, interrupted?: boolean): StreamOutcome;
};

/** `recordProof` gets each reasoning proof (signature, redacted data, encrypted content) as it passes. */
export function createStreamObserver(recordProof?: (proof: string) => void): StreamObserver {
  const seen: Omit<StreamOutcome, 'clientAborted' | 'interrupted'> = {
    upstreamId: undefined,
    finishReason: undefined,
    usage: undefined,
    error: undefined,
    outputCharacters: 0,
  };
  const observer: StreamObserver = {
    terminated: false,
    observe(events) {
      for (const event of events) {
        if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
          seen.outputCharacters += event.delta.length;
        } else if (event.type === 'tool-call-delta') seen.outputCharacters += event.argumentsDelta.length;
        else if (event.type === 'response-start') seen.upstreamId = event.id;
        else if (event.type === 'response-end') {
          seen.finishReason = event.finishReason;
          seen.usage = event.usage;
          observer.terminated = true;
        } else if (event.type === 'error') {
          seen.error = event.error;
          observer.terminated = true;
        } else if (recordProof && (event.type === 'reasoning-end' || event.type === 'reasoning-start')) {
          recordProofsOf(event, recordProof);
        }
      }
      return events;
    },
    outcome: (clientAborted, interrupted = false) => ({ ...seen, clientAborted, interrupted }),
  };
  return observer;
}

function recordProofsOf(event: Extract<StreamEvent, { type: 'reasoning-start' | 'reasoning-end' }>, recordProof: (proof: string) => void): void {
  if (event.type === 'reasoning-start') {
    if (event.redactedData) recordProof(event.redactedData);
    return;
  }
  if (event.signature) recordProof(event.signature);
  if (event.encryptedContent) recordProof(event.encryptedContent);
}
