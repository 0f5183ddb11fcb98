import { GatewayError } from '@signalbox/core';
import type { Clock, GatewayConfig } from '@signalbox/engine';
import type { WebSocket } from 'ws';
import { connectionLimitReached, type WebSocketConnection } from './serve-web-socket-connection';

/** The connections of an attachment: open now, closed so far, and the responses the closed ones served. */
export type WebSocketStats = { open: number; closed: number; closedResponses: number };

type Tracked = { keyId: string; connection: WebSocketConnection; alive: boolean; cancelLimit(): void };

export type WebSocketConnections = {
  /** The refusal for one more connection of `keyId` past a cap, else `undefined`. */
  admit(keyId: string): GatewayError | undefined;
  /** Follows a connection until it closes: its time limit, its pings, the counts. */
  add(webSocket: WebSocket, keyId: string, connection: WebSocketConnection): void;
  /** Connections open now, connections closed so far and the responses those served. */
  stats(): WebSocketStats;
  endAll(end: (connection: WebSocketConnection) => void): void;
  /** Cuts every open connection at once (no close handshake). */
  terminateAll(): void;
};

/**
 * The open connections: counted in all and per key (the caps of `config.webSocket`), each ended at
 * its time limit on the engine's clock, and pinged every `keepAliveMs` by one timer for all of
 * them (a connection that did not answer the previous ping is dropped).
 */
export function trackWebSocketConnections(options: {
  clock: Clock;
  config: GatewayConfig;
}): WebSocketConnections {
  const { clock, config } = options;
  const { maxSockets, maxSocketsPerKey, connectionLimitMs } = config.webSocket;
  const open = new Map<WebSocket, Tracked>();
  const perKey = new Map<string, number>();
  let stopPings: (() => void) | undefined;
  let closed = 0;
  let closedResponses = 0;
  const ping = () => {
    stopPings = undefined;
    for (const [webSocket, tracked] of open) {
      if (!tracked.alive) webSocket.terminate();
      tracked.alive = false;
      webSocket.ping();
    }
    if (open.size > 0) stopPings = clock.schedule(ping, config.keepAliveMs);
  };
  return {
    admit(keyId) {
      if (open.size >= maxSockets) return socketsLimited(`The gateway has ${maxSockets} WebSocket connections open, as many as it takes`);
      if ((perKey.get(keyId) ?? 0) >= maxSocketsPerKey) return socketsLimited(`This key has ${maxSocketsPerKey} WebSocket connections open, as many as one key may`);
      return undefined;
    },
    add(webSocket, keyId, connection) {
      const tracked: Tracked = { keyId, connection, alive: true, cancelLimit: clock.schedule(() => connection.endWhenIdle(connectionLimitReached(connectionLimitMs), 1000), connectionLimitMs) };
      open.set(webSocket, tracked);
      perKey.set(keyId, (perKey.get(keyId) ?? 0) + 1);
      if (!stopPings && config.keepAliveMs > 0) stopPings = clock.schedule(ping, config.keepAliveMs);
      webSocket.on('pong', () => (tracked.alive = true));
      webSocket.once('close', () => {
        tracked.cancelLimit();
        open.delete(webSocket);
        const count = (perKey.get(keyId) ?? 1) - 1;
        if (count === 0) perKey.delete(keyId);
        else perKey.set(keyId, count);
        closed += 1;
        closedResponses += connection.responses();
        if (open.size > 0) return;
        stopPings?.();
        stopPings = undefined;
      });
    },
    stats: () => ({ open: open.size, closed, closedResponses }),
    endAll(end) {
      for (const tracked of open.values()) end(tracked.connection);
    },
    terminateAll() {
      for (const webSocket of open.keys()) webSocket.terminate();
    },
  };
}

function socketsLimited(reason: string): GatewayError {
  return new GatewayError({
    code: 'WEBSOCKET_SOCKETS_LIMITED',
    message: `${reason}: close idle connections, or send the request over HTTP (POST), and retry later.`,
  });
}
