import type { FinishReason, GatewayError, StreamEvent, Usage } from '@switchyard/core';

/** What the usage record needs to know about a stream, gathered as events pass. Constant size. */
export type StreamObserver = {
  upstreamId: string | undefined;
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
  error: GatewayError | undefined;
  terminated: boolean;
  observe(events: readonly StreamEvent[]): readonly StreamEvent[];
};

export function createStreamObserver(): StreamObserver {
  const observer: StreamObserver = {
    upstreamId: undefined,
    finishReason: undefined,
    usage: undefined,
    error: undefined,
    terminated: false,
    observe(events) {
      for (const event of events) {
        if (event.type === 'response-start') observer.upstreamId = event.id;
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
