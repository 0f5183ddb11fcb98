import type { GatewayError } from '../errors/gateway-error';
import type { JSONObject } from '../json';
import type { Protocol } from '../protocol';
import type { SSEMessage } from '../sse-message';

/** One client text frame, read: a request to answer, or an acknowledgement that asks nothing. */
export type WebSocketClientFrame =
  | {
      kind: 'create';
      /** The request as its HTTP endpoint takes it, streamed. */
      body: JSONObject;
      /** False for a warm-up: the request's state is prepared and an id returned, nothing is generated. */
      generate: boolean;
    }
  | { kind: 'acknowledgement' };

/**
 * A protocol's WebSocket mode (Responses: `GET /v1/responses` upgraded, one `response.create` frame
 * per response): how a client frame is read and how the stream's events and errors are framed. The
 * events are the SSE stream's own; only the framing differs.
 */
export interface WebSocketCodec {
  /** The protocol a response served this way is recorded under (`openai-responses-ws`). */
  readonly recordedProtocol: Protocol;
  /** Reads one text frame. Throws `GatewayError` (400) for a frame that is no JSON or no known event. */
  readClientFrame(text: string): WebSocketClientFrame;
  /** The text frame carrying one stream message. */
  frameOf(message: SSEMessage): string;
  /** The error frame for a refusal outside a response's stream (it carries the HTTP status it stands for). */
  encodeErrorFrame(error: GatewayError, requestId: string): string;
}
