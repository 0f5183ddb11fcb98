import { emptyUsage, type FinishReason, type SSEMessage, type StreamEvent } from '@signalbox/core';
import { formatSSEFrame } from '@signalbox/sse';
import type { GenerationOutput } from '../generation/generation-output';
import type { ExchangeDependencies } from './exchange-dependencies';
import type { ExchangeState } from './exchange-state';
import { refuseWebSocketRoute } from '../routing/refuse-web-socket-route';
import { openExchangeBody } from './open-exchange-body';

/**
 * A warm-up (Responses' `generate: false`): the body's stored state is resolved, the request decoded
 * and its model routed (the refusals a generation would meet there), then it is answered as an empty
 * stream in the client's protocol, whose response is kept like any other (in the store, or with
 * `store: false` in the connection) so the next request can continue it with only new input.
 * Nothing goes upstream; nothing is billed or recorded.
 */
export async function warmUpOnExchange(state: ExchangeState, dependencies: ExchangeDependencies, body: unknown): Promise<GenerationOutput> {
  const { codec } = state;
  const { conversation, opened } = await openExchangeBody(state, dependencies, body);
  const { value: request } = codec.decodeRequest(opened.body, state.decodeOptions);
  refuseWebSocketRoute(state, dependencies.routing.current.table.resolve(request.model, codec.protocol));
  const encoder = codec.createStreamEncoder({ request, createdAt: Math.floor(state.startedAt / 1000) });
  const finishReason: FinishReason = { unified: 'stop', raw: undefined };
  const events: StreamEvent[] = [
    { type: 'response-start', id: '', model: request.model },
    { type: 'response-end', finishReason, usage: emptyUsage() },
  ];
  const messages: SSEMessage[] = [];
  for (const event of events) messages.push(...encoder.push(event));
  const formatFrame = state.transport?.formatFrame ?? formatSSEFrame;
  return {
    kind: 'stream',
    headers: {},
    async pipe(sink) {
      let clientAborted = false;
      try {
        for (const message of messages) {
          conversation.tap?.observe(message);
          if (message === messages.at(-1)) await conversation.tap?.beforeEnd();
          if (!sink.write(formatFrame(message))) await sink.drained();
        }
      } catch {
        clientAborted = true;
      }
      return { upstreamId: undefined, finishReason, usage: emptyUsage(), error: undefined, outputCharacters: 0, clientAborted, interrupted: false };
    },
  };
}
