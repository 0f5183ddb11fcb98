import { GatewayError, quoteClientValue } from '@signalbox/core';
import type { ExchangeState } from '../exchange/exchange-state';
import type { Route } from './create-route-table';

/** Refuses a route with `webSocket: false` to an exchange on a WebSocket (426, in an error frame). */
export function refuseWebSocketRoute(state: ExchangeState, route: Route): void {
  if (!state.transport || route.webSocket !== false) return;
  const path = `${state.decodeOptions.mountPath ?? ''}${state.codec.descriptor.generationPath}`;
  throw new GatewayError({
    code: 'WEBSOCKET_NOT_SUPPORTED',
    message: `The model ${quoteClientValue(route.model)} is not served over WebSocket; send POST ${path} over HTTP instead (with "stream": true to stream it).`,
    param: 'model',
  });
}
