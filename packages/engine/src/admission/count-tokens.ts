import { GatewayError, type Codec, type DecodeOptions, type JSONObject } from '@signalbox/core';
import type { Principal } from '../auth/authenticate';
import { countAtUpstream } from '../generation/count-at-upstream';
import { warningsHeader } from '../generation/format-warnings-header';
import type { UpstreamTarget } from '../generation/upstream-target';
import type { RouteTable } from '../routing/create-route-table';
import { authorizeRoute } from './authorize-route';
import { estimateInputTokens } from './estimate-input-tokens';

/** A token-count answer: its body in the protocol's shape, and the headers that say an estimate is one. */
export type TokenCountAnswer = { body: JSONObject; headers: Record<string, string> };

/** What a token count reads besides the request: the routes, the upstreams, the clock. */
export type TokenCountContext = { routes: RouteTable; upstreams: ReadonlyMap<string, UpstreamTarget>; now(): number };

/** The warnings-header entry of a count that is the gateway's estimate, as a translation's approximations are listed. */
const ESTIMATE_HEADERS = warningsHeader(['input_tokens (estimate)']);

/**
 * A token-count request's answer, for a model the caller may use: the count of the route's first
 * target's cloud when its kind counts (Bedrock, Vertex AI), else the documented input-token
 * estimate, marked as one in `x-signalbox-warnings`. Nothing is billed.
 */
export async function countTokens(
  context: TokenCountContext,
  principal: Principal,
  codec: Codec,
  body: unknown,
  options: { decodeOptions: DecodeOptions; signal: AbortSignal },
): Promise<TokenCountAnswer> {
  if (!codec.decodeTokenCountRequest || !codec.encodeTokenCount) {
    throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: 'This interface has no token-count endpoint.' });
  }
  const request = codec.decodeTokenCountRequest(body, options.decodeOptions);
  const route = context.routes.resolve(request.model, codec.protocol);
  authorizeRoute(principal, route);
  const [first] = route.targets;
  const target = first && context.upstreams.get(first.upstream);
  // The client's own body goes to a cloud of its protocol only; any other would need a translation the count cannot be checked against.
  if (first && target?.codec.protocol === codec.protocol) {
    const counted = await countAtUpstream({ target, model: first.model, body: body as JSONObject, signal: options.signal, now: context.now() });
    if (counted !== undefined) return { body: codec.encodeTokenCount(counted), headers: {} };
  }
  return { body: codec.encodeTokenCount(estimateInputTokens(request)), headers: ESTIMATE_HEADERS };
}
