import { boundClientText, GatewayError, type Codec } from '@signalbox/core';
import type { Endpoint, Engine } from '@signalbox/engine';
import type { Request, RequestHandler } from 'express';
import { findGatewayContext } from '../context/gateway-context';
import { openRequestContext } from '../context/open-request-context';
import { requestShapeOf } from './request-shape';

export type NotFoundOptions = {
  engine: Engine;
  /**
   * Answer every path, not only the gateway's own: for a host that wants the gateway's JSON 404 as
   * its last handler (`gateway.notFoundHandler`). A path the gateway does not claim (a browser's
   * `/favicon.ico`, a client's `HEAD /` probe) is no API call: it gets its 404 but no ledger row.
   * Default false.
   */
  everyPath?: boolean;
};

/**
 * A 404 in the caller's envelope for a path under the gateway's `/v1` that no endpoint serves (and
 * for an endpoint path that lacks or repeats `/v1`), with a hint that fixes the usual base-URL
 * mistakes and a list of the endpoints actually mounted; such a request is recorded like any
 * refused API call. Any other path is not the gateway's: it goes on to the host's next route, or
 * with `everyPath` gets the same 404 without being recorded.
 *
 * @example router.use(createNotFoundHandler({ engine }))
 */
export function createNotFoundHandler(options: NotFoundOptions): RequestHandler {
  const { engine } = options;
  const { endpoints } = engine.registry;
  const listed = endpoints.map(endpoint => `${endpoint.method} ${endpoint.path}`).join(', ');
  const claims = createPathClaim(engine);
  return function notFoundHandler(request, response, next) {
    const claimed = claims(request.path);
    if (!claimed && !options.everyPath) return next();
    // Only a claimed path opens an exchange (and so a ledger row); the others get a request id for their answer and access line.
    const context =
      findGatewayContext(request) ?? openRequestContext(engine, engine.registry.guess(requestShapeOf(request)), request, response, { recorded: claimed });
    throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: notFoundMessage(request, endpoints, listed, context.codec) });
  };
}

/**
 * The paths the gateway answers even without an endpoint there: everything under `/v1` (and under
 * the first segment of every endpoint's path), and an
 * endpoint's path without its `/v1` (a base URL missing `/v1` deserves a hint, not the host's 404).
 */
export function createPathClaim(engine: Engine): (path: string) => boolean {
  const withoutV1 = new Set(engine.registry.endpoints.map(endpoint => endpoint.path.toLowerCase().replace(/^\/v1(?=\/)/, '')));
  // A protocol versioned otherwise (Gemini's `/v1beta`) has its first segment claimed too.
  const roots = [...new Set(engine.registry.endpoints.map(endpoint => /^\/[^/]+/.exec(endpoint.path.toLowerCase())?.[0] ?? '/v1'))];
  // Express matches routes without regard to case by default: so does the claim.
  return path => {
    const lower = path.toLowerCase();
    return roots.some(root => lower === root || lower.startsWith(`${root}/`)) || lower === '/v1' || lower.startsWith('/v1/') || withoutV1.has(lower);
  };
}

function notFoundMessage(request: Request, endpoints: readonly Endpoint[], listed: string, codec: Codec): string {
  const { method, path } = request;
  // The path and method are the client's: echoed only as far as a real one goes.
  const base = `No endpoint ${boundClientText(method, 20)} ${boundClientText(path)}.`;
  const baseURL = `give this client the base URL ${sdkBaseURL(request, codec)}`;
  if (/\/v1\/v1(\/|$)/.test(path)) return `${base} The path repeats /v1: ${baseURL}.`;
  const same = endpoints.find(endpoint => endpoint.path === path);
  if (same) return `${base} Use ${same.method} ${same.path}.`;
  if (endpoints.some(endpoint => endpoint.path === `/v1${path}`)) return `${base} The path lacks /v1: ${baseURL}.`;
  return `${base} Endpoints: ${listed}.`;
}

/**
 * The base URL the codec's vendor SDK takes for this gateway: where the gateway is mounted, plus
 * what the SDK does not append itself (`/v1` for SDKs that append `/responses`, nothing for those
 * that append `/v1/messages`).
 */
function sdkBaseURL(request: Request, codec: Codec): string {
  const { generationPath, upstreamPath } = codec.descriptor;
  const suffix = generationPath.endsWith(upstreamPath) ? generationPath.slice(0, generationPath.length - upstreamPath.length) : '';
  const host = (request.get('host') ?? 'localhost').slice(0, 200);
  return `${request.protocol}://${host}${request.baseUrl}${suffix}`;
}
