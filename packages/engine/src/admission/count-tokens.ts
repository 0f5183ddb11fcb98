import { GatewayError, type Codec, type DecodeOptions, type JSONObject } from '@signalbox/core';
import type { Principal } from '../auth/authenticate';
import type { RouteTable } from '../routing/create-route-table';
import { authorizeRoute } from './authorize-route';
import { estimateInputTokens } from './estimate-input-tokens';

/**
 * A token-count request's answer: the documented input-token estimate, in the protocol's answer
 * shape, for a model the caller may use. Nothing is billed.
 */
export function countTokens(routes: RouteTable, principal: Principal, codec: Codec, body: unknown, decodeOptions: DecodeOptions): JSONObject {
  if (!codec.decodeTokenCountRequest || !codec.encodeTokenCount) {
    throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: 'This interface has no token-count endpoint.' });
  }
  const request = codec.decodeTokenCountRequest(body, decodeOptions);
  authorizeRoute(principal, routes.resolve(request.model, codec.protocol));
  return codec.encodeTokenCount(estimateInputTokens(request));
}
