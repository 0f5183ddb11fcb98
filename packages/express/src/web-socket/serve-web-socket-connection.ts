import type { IncomingMessage } from 'node:http';
import { GatewayError, type Codec, type SSEMessage, type WebSocketCodec } from '@signalbox/core';
import { createConnectionResponses, type Engine, type Exchange, type ExchangeTransport } from '@signalbox/engine';
import type { RawData, WebSocket } from 'ws';
import { toClientError } from '../errors/to-client-error';
import { createWebSocketSink, FRAME_SEPARATOR, UNCOMPRESSED, type Corkable } from './create-web-socket-sink';

/** What a connection keeps of its opening handshake. */
export type Handshake = Pick<IncomingMessage, 'headers' | 'url'>;

/** A served connection, as the attachment that tracks it sees it. */
export type WebSocketConnection = {
  /**
   * Ends the connection for the gateway's own reason (its time limit, shutdown): `error`'s frame,
   * then a close frame with `closeCode`; at once when idle, else once its response has ended.
   */
  endWhenIdle(error: GatewayError, closeCode: number): void;
  /** The `response.create` frames it served so far. */
  responses(): number;
};

export type WebSocketConnectionOptions = {
  engine: Engine;
  /** The codec of the endpoint upgraded, with its WebSocket mode. */
  codec: Codec & { webSocket: WebSocketCodec };
  /** The opening handshake's headers (they authenticate each response again) and path (logged); nothing else of it is kept. */
  handshake: Handshake;
  mountPath: string;
  /** Unsent bytes past which a stream stops reading its upstream until the socket drains. */
  highWaterMark: number;
  /** The TCP socket under the WebSocket: the frames of one write are corked into one write on it. */
  connection: Corkable;
  /** Once per response, as it ends (the access line waits for its record). */
  onResponse(exchange: Exchange, handshake: Handshake, ending: { latencyMs: number; aborted: boolean }): void;
  /** Once per refusal the client is sent in an error frame, for the failure log. */
  onRefusal(failure: GatewayError, requestId: string): void;
};

/**
 * Serves one WebSocket connection: each `response.create` frame is one exchange through the engine
 * (authenticated again, admitted, billed and recorded like a `POST`), whose stream events go out one
 * text frame each; one response at a time (another `response.create` meanwhile gets an error
 * frame); a `store: false` answer is kept in the connection for the next request's
 * `previous_response_id`. A client that closes aborts its response like a client that disconnects.
 */
export function serveWebSocketConnection(socket: WebSocket, options: WebSocketConnectionOptions): WebSocketConnection {
  const { engine, codec } = options;
  const transport: ExchangeTransport = {
    recordedProtocol: codec.webSocket.recordedProtocol,
    formatFrame: (message: SSEMessage) => codec.webSocket.frameOf(message) + FRAME_SEPARATOR,
    connectionResponses: createConnectionResponses(),
  };
  let inFlight: AbortController | undefined;
  let ending: { error: GatewayError; closeCode: number } | undefined;
  let responses = 0;
  const sendError = (error: unknown, requestId: string) => {
    const failure = toClientError(error, engine.secrets);
    options.onRefusal(failure, requestId);
    if (socket.readyState === socket.OPEN) socket.send(codec.webSocket.encodeErrorFrame(failure, requestId), UNCOMPRESSED);
  };
  const end = () => {
    if (!ending || socket.readyState !== socket.OPEN) return;
    socket.send(codec.webSocket.encodeErrorFrame(ending.error, engine.openRequest().requestId), UNCOMPRESSED);
    socket.close(ending.closeCode, ending.error.code.toLowerCase());
  };
  const respond = async (text: string) => {
    const controller = new AbortController();
    inFlight = controller;
    responses += 1;
    try {
      await runResponse(text, controller.signal, { options, transport, sendError, socket });
    } finally {
      inFlight = undefined;
      end();
    }
  };
  socket.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) return sendError(textFramesOnly(), engine.openRequest().requestId);
    if (inFlight) return sendError(responseInProgress(), engine.openRequest().requestId);
    void respond(data.toString());
  });
  socket.on('close', () => inFlight?.abort(new Error('The client closed the connection.')));
  // A protocol error (a frame over the body limit, bad framing) closes the connection with its code (1009, 1002).
  socket.on('error', () => undefined);
  return {
    endWhenIdle(error, closeCode) {
      ending ??= { error, closeCode };
      if (!inFlight) end();
    },
    responses: () => responses,
  };
}

type ResponseParts = {
  options: WebSocketConnectionOptions;
  transport: ExchangeTransport;
  sendError(error: unknown, requestId: string): void;
  socket: WebSocket;
};

/** One client frame: a response streamed, a warm-up answered, an acknowledgement passed over, or an error frame. */
async function runResponse(text: string, signal: AbortSignal, parts: ResponseParts): Promise<void> {
  const { options, transport, sendError, socket } = parts;
  const { engine, codec, handshake } = options;
  let frame;
  try {
    frame = codec.webSocket.readClientFrame(text);
  } catch (error) {
    return sendError(error, engine.openRequest().requestId);
  }
  if (frame.kind === 'acknowledgement') return;
  const exchange = engine.openExchange({ protocol: codec.protocol, headers: handshake.headers, mountPath: options.mountPath, transport });
  let aborted = false;
  try {
    await exchange.authenticate(handshake.headers);
    const output = frame.generate ? await exchange.generate(frame.body, signal) : await exchange.warmUp(frame.body);
    if (output.kind === 'json') socket.send(JSON.stringify(output.body), UNCOMPRESSED);
    else aborted = (await output.pipe(createWebSocketSink(socket, options.connection, options.highWaterMark))).clientAborted;
  } catch (error) {
    aborted = signal.aborted;
    const failure = toClientError(error, engine.secrets);
    exchange.refuse(failure);
    if (!aborted) sendError(failure, exchange.requestId);
  } finally {
    options.onResponse(exchange, handshake, { latencyMs: engine.clock.now() - exchange.startedAt, aborted });
  }
}

function responseInProgress(): GatewayError {
  return new GatewayError({
    code: 'WEBSOCKET_RESPONSE_IN_PROGRESS',
    message: 'A response is already in progress on this connection: wait for its terminal event before sending the next response.create (or open another connection).',
  });
}

function textFramesOnly(): GatewayError {
  return new GatewayError({ code: 'INVALID_REQUEST', message: 'Binary frames are not accepted: send each event as one JSON text frame.' });
}

/** The frame's error at a connection's time limit, in the words Codex and the API use. */
export function connectionLimitReached(limitMs: number): GatewayError {
  const minutes = Math.round(limitMs / 60_000);
  return new GatewayError({
    code: 'WEBSOCKET_CONNECTION_LIMIT_REACHED',
    message: `Responses websocket connection limit reached (${minutes} minutes). Create a new websocket connection to continue.`,
  });
}
