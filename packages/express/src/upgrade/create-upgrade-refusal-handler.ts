import { GatewayError } from '@signalbox/core';
import type { Request, RequestHandler } from 'express';

export type UpgradeRefusalOptions = {
  /** The endpoint's path (as mounted in the Router), named in the message as the one to POST to. */
  path: string;
};

/**
 * Answers a WebSocket upgrade on a generation endpoint (`GET /v1/responses` with `Upgrade:
 * websocket`) with 426 `WEBSOCKET_NOT_SUPPORTED` in the caller's envelope, saying that the gateway
 * streams over HTTP instead. Clients that try a WebSocket transport first (Codex does, on the
 * Responses path) fall back to HTTP at once on a 426, where a 404 or 405 makes them retry the
 * upgrade for seconds. Mount it for the requests `asksForWebSocket` picks, after the request-id
 * middleware (which picks the envelope).
 *
 * @example router.get('/v1/responses', onlyWebSocketUpgrades, createRequestIdMiddleware({ engine, protocol }), createUpgradeRefusalHandler({ path: '/v1/responses' }))
 */
export function createUpgradeRefusalHandler(options: UpgradeRefusalOptions): RequestHandler {
  return function upgradeRefusalHandler(request) {
    throw new GatewayError({
      code: 'WEBSOCKET_NOT_SUPPORTED',
      message: `This gateway does not serve WebSocket connections; send POST ${request.baseUrl}${options.path} over HTTP instead (with "stream": true to stream it as server-sent events).`,
    });
  };
}

/** Whether the request asks to switch to the WebSocket protocol (`Upgrade: websocket`, in any case, possibly among other protocols). */
export function asksForWebSocket(request: Request): boolean {
  const upgrade = request.headers.upgrade;
  return typeof upgrade === 'string' && upgrade.split(',').some(protocol => protocol.trim().toLowerCase().startsWith('websocket'));
}
