import { authenticate, type Principal, type RequestHeaders } from '../auth/authenticate';
import { readForwardedParts } from '../generation/forwarded-request-parts';
import type { ExchangeDependencies } from './exchange-dependencies';
import type { ExchangeState } from './exchange-state';

/**
 * Checks the caller's key and version headers with the interface's own scheme, and keeps on the
 * exchange's state the caller, the protocol version its headers declare and the vendor flags of the
 * request (its descriptor's forwarded headers and `query` parameters) for the upstream call.
 */
export async function authenticateOnExchange(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  headers: RequestHeaders,
  query: Readonly<Record<string, unknown>> | undefined,
): Promise<Principal> {
  const { codec } = state;
  const authenticated = await authenticate({
    descriptor: codec.descriptor,
    headers,
    ...(query && { query }),
    store: dependencies.store,
    policy: dependencies.authPolicy(codec),
    now: dependencies.clock.now(),
    keyHeadersElsewhere: dependencies.keyHeadersElsewhere,
    mountPath: state.decodeOptions.mountPath ?? '',
  });
  state.principal = authenticated.principal;
  if (authenticated.accountConfirmed) state.accountConfirmed = authenticated.accountConfirmed;
  if (authenticated.apiVersion !== undefined) state.decodeOptions = { ...state.decodeOptions, apiVersion: authenticated.apiVersion };
  state.forwarded = readForwardedParts(codec.descriptor, headers, query, dependencies.forwardClientHeaders);
  return authenticated.principal;
}
