import { encodeOpenAIError } from '@signalbox/codec-openai-shared';
import {
  GatewayError,
  isJSONObject,
  quoteClientName,
  type JSONObject,
  type WebSocketClientFrame,
  type WebSocketCodec,
} from '@signalbox/core';

/**
 * Responses' WebSocket mode: each `response.create` frame is a `POST /v1/responses` body without
 * the transport's `stream` (always streamed here) plus `generate` (`false`: a warm-up);
 * `response.processed` acknowledges a response and asks nothing. Each stream event is one text frame
 * holding the SSE event's JSON; an error outside a stream is `{"type": "error", "status", "error"}`.
 * @see https://developers.openai.com/api/docs/guides/websocket-mode
 */
export const openAIResponsesWebSocket: WebSocketCodec = {
  recordedProtocol: 'openai-responses-ws',
  readClientFrame,
  frameOf: message => message.data,
  encodeErrorFrame(error, requestId) {
    const { status, body } = encodeOpenAIError(error, requestId);
    return JSON.stringify({ type: 'error', status, ...body });
  },
};

function readClientFrame(text: string): WebSocketClientFrame {
  const frame = parseFrame(text);
  const { type, generate, stream: _stream, ...rest } = frame;
  if (type === 'response.processed') return { kind: 'acknowledgement' };
  if (type !== 'response.create') {
    const named = type === undefined ? 'The frame has no event type' : `Unknown event type ${quoteClientName(type, '(not a type name)')}`;
    throw new GatewayError({ code: 'INVALID_REQUEST', message: `${named}: send "response.create" (or "response.processed").`, param: 'type' });
  }
  if (generate !== undefined && typeof generate !== 'boolean') {
    throw new GatewayError({ code: 'INVALID_REQUEST', message: '`generate` must be a boolean (false: a warm-up that generates nothing).', param: 'generate' });
  }
  return { kind: 'create', body: { ...rest, stream: true }, generate: generate !== false };
}

function parseFrame(text: string): JSONObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GatewayError({ code: 'INVALID_JSON', message: 'The frame is not valid JSON: send one JSON object per text frame.' });
  }
  if (!isJSONObject(value)) throw new GatewayError({ code: 'INVALID_JSON', message: 'The frame is not a JSON object: send one JSON object per text frame.' });
  return value;
}
