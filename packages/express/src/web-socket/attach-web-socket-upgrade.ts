import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError, type Codec, type WebSocketCodec } from '@signalbox/core';
import type { Engine, GatewayConfig, Principal } from '@signalbox/engine';
import type * as WS from 'ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { toClientError } from '../errors/to-client-error';
import { UNCOMPRESSED } from './create-web-socket-sink';
import { handOverUpgrade } from './hand-over-upgrade';
import { serveWebSocketConnection, type WebSocketConnection, type WebSocketConnectionOptions } from './serve-web-socket-connection';
import { trackWebSocketConnections, type WebSocketStats } from './track-web-socket-connections';

/** What a host's server gets from `gateway.attachUpgrade(server)`. */
export type WebSocketAttachment = {
  /** Connections open now, closed so far, and the responses the closed ones served (metrics). */
  stats(): WebSocketStats;
  /**
   * For shutdown: no more upgrades are taken, and each connection gets the protocol's error frame
   * (503 `SHUTTING_DOWN`) and a close frame (1001) at once when idle, else once its response ends
   * (`engine.drain` bounds that).
   */
  close(): void;
  /** Cuts every connection still open (past the shutdown's grace). */
  terminate(): void;
};

export type WebSocketUpgradeOptions = Pick<WebSocketConnectionOptions, 'onResponse' | 'onRefusal'> & {
  engine: Engine;
  config: GatewayConfig;
  /** Where the gateway's Router is mounted (`/llm`); empty at the root. */
  mountPath: string;
};

/**
 * The ws server the upgrades are handed to, made at the first WebSocket upgrade: ws is loaded only
 * then, so a server that never takes one never holds its modules. The largest frame is `maxPayload`.
 */
function createWebSocketServer(maxPayload: number): WebSocketServer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  const { WebSocketServer: Server } = require('ws') as typeof WS;
  return new Server({ noServer: true, maxPayload, perMessageDeflate: true, clientTracking: false });
}

/** Unsent bytes per socket past which a stream waits for the socket to drain. */
const HIGH_WATER_MARK = 64 * 1024;

/**
 * Serves the WebSocket mode of each generation endpoint whose codec has one (`GET /v1/responses`
 * upgraded) on the host's own server, beside its other `upgrade` listeners: an upgrade on any other
 * path is left to them (or, with none, answered by the host's request handler as before). The key
 * is checked at the handshake (a refusal is the HTTP error in the endpoint's envelope) and again for
 * each response; connections are capped in all and per key (close code 1013), pinged, and ended
 * after `webSocket.connectionLimitMs` with `websocket_connection_limit_reached`. The largest frame is
 * the body limit; compressed frames (permessage-deflate) are accepted, and its own are sent uncompressed.
 */
export function attachWebSocketUpgrade(server: Server, options: WebSocketUpgradeOptions): WebSocketAttachment {
  const { engine, config, mountPath } = options;
  const codecs = new Map<string, Codec & { webSocket: WebSocketCodec }>();
  for (const endpoint of engine.registry.endpoints) {
    const { codec } = endpoint;
    if (endpoint.kind === 'generation' && codec.webSocket) codecs.set(mountPath + endpoint.path, { ...codec, webSocket: codec.webSocket });
  }
  let webSockets: WebSocketServer | undefined;
  const tracked = trackWebSocketConnections({ clock: engine.clock, config });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const codec = codecs.get(pathOf(request.url));
    if (!codec) {
      if (server.listenerCount('upgrade') === 1) handOverUpgrade(server, request, socket);
      return;
    }
    socket.on('error', () => socket.destroy());
    void upgrade(request, socket, head, codec);
  };
  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer, codec: Codec & { webSocket: WebSocketCodec }) => {
    const principal = await authenticateHandshake(engine, codec, request, socket, mountPath);
    if (!principal || socket.destroyed) return;
    webSockets ??= createWebSocketServer(config.bodyLimitBytes);
    webSockets.handleUpgrade(request, socket, head, webSocket => {
      const refusal = tracked.admit(principal.key.id);
      if (refusal) return refuseConnection(webSocket, codec, refusal, engine.openRequest().requestId);
      const connection = serveWebSocketConnection(webSocket, {
        engine, codec, handshake: { headers: request.headers, url: request.url }, mountPath, connection: socket, highWaterMark: HIGH_WATER_MARK, onResponse: options.onResponse, onRefusal: options.onRefusal,
      });
      tracked.add(webSocket, principal.key.id, connection);
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    stats: () => tracked.stats(),
    close() {
      server.off('upgrade', onUpgrade);
      const shuttingDown = new GatewayError({ code: 'SHUTTING_DOWN', message: 'The gateway is shutting down: open a new connection (to another instance) and continue there.' });
      tracked.endAll((connection: WebSocketConnection) => connection.endWhenIdle(shuttingDown, 1001));
    },
    terminate: () => tracked.terminateAll(),
  };
}

/** The key of the handshake, or `undefined` once its refusal was written (the HTTP error in the endpoint's envelope). */
async function authenticateHandshake(
  engine: Engine,
  codec: Codec,
  request: IncomingMessage,
  socket: Duplex,
  mountPath: string,
): Promise<Principal | undefined> {
  const exchange = engine.openExchange({ protocol: codec.protocol, headers: request.headers, mountPath });
  try {
    return await exchange.authenticate(request.headers);
  } catch (error) {
    const failure = toClientError(error, engine.secrets);
    exchange.refuse(failure);
    const { status, body } = codec.encodeError(failure, exchange.requestId);
    const text = JSON.stringify(body);
    const requestIdLines = codec.descriptor.requestIdHeaders.map(name => `${name}: ${exchange.requestId}\r\n`).join('');
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(text)}\r\n${requestIdLines}\r\n${text}`,
    );
    return undefined;
  }
}

/** A connection past a cap: the protocol's error frame, then close code 1013 (try again later). */
function refuseConnection(webSocket: WebSocket, codec: Codec & { webSocket: WebSocketCodec }, refusal: GatewayError, requestId: string): void {
  webSocket.send(codec.webSocket.encodeErrorFrame(refusal, requestId), UNCOMPRESSED);
  webSocket.close(1013, 'websocket_sockets_limited');
}

/** The path of a request target (`/v1/responses?x=1` → `/v1/responses`). */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
