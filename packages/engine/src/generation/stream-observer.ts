import type { FinishReason, GatewayError, StreamEvent, Usage } from '@switchyard/core';

/** What the usage record needs to know about a stream, gathered as events pass. Constant size. */
export type StreamObserver = {
  upstreamId: string | undefined;
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
  error: GatewayError | undefined;
  terminated: boolean;
  /** Characters of text, refusal and reasoning streamed so far (for an estimate when usage never comes). */
  outputCharacters: number;
  observe(events: readonly StreamEvent[]): readonly StreamEvent[];
};

export function createStreamObserver(): StreamObserver {
  const observer: StreamObserver = {
    upstreamId: undefined,
    finishReason: undefined,
    usage: undefined,
    error: undefined,
    terminated: false,
    outputCharacters: 0,
    observe(events) {
      for (const event of events) {
        if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
          observer.outputCharacters += event.delta.length;
        } else if (event.type === 'tool-call-delta') observer.outputCharacters += event.argumentsDelta.length;
        else if (event.type === 'response-start') observer.upstreamId = event.id;
        else if (event.type === 'response-end') {
          observer.finishReason = event.finishReason;
          observer.usage = event.usage;
          observer.terminated = true;
        } else if (event.type === 'error') {
          observer.error = event.error;
          observer.terminated = true;
        }
      }
      return events;
    },
  };
  return observer;
}
