import type { JSONObject } from '@signalbox/core';
import { forwardedHeadersFor, forwardedPathFor, type ForwardedRequestParts } from './forwarded-request-parts';
import type { PooledCredential } from '../upstreams/credential-pool';
import type { UpstreamTarget } from './upstream-target';

/** One attempt's call, ready to send: its path under the base URL, its body serialised, its per-call headers. */
export type ComposedUpstreamCall = { path: string; body: string; headers: Readonly<Record<string, string>> | undefined };

/** What an attempt sends besides its body. */
export type UpstreamCallParts = {
  model: string;
  stream: boolean;
  /** The client's flags, query and headers, for an upstream of its protocol; `undefined` for any other. */
  forwarded: ForwardedRequestParts | undefined;
  /** The observer's headers (a trace context), on top of the forwarded ones. */
  observerHeaders: Readonly<Record<string, string>> | undefined;
};

/**
 * The call of one attempt: the path is the kind's for the model and the answer's framing, or the
 * protocol's `upstreamPath` with the client's forwarded query on a same-protocol route (a kind's
 * path is a cloud's URL, which takes none of the vendor's query flags); the body is the kind's
 * adjustment of the encoded one, serialised once, with the forwarded flags the kind carries in it.
 * The default kind adds nothing: no hook, no object.
 */
export function composeUpstreamCall(target: UpstreamTarget, credential: PooledCredential, body: JSONObject, parts: UpstreamCallParts): ComposedUpstreamCall {
  const { kind } = target;
  const { forwarded, observerHeaders } = parts;
  const headers = forwarded === undefined ? observerHeaders : Object.assign(forwardedHeadersFor(credential.headers, forwarded), observerHeaders);
  const flags = kind.flagsInBody && forwarded !== undefined ? takeFlags(headers as Record<string, string>, kind.flagsInBody) : undefined;
  const call = kind.path || kind.prepareBody ? { model: parts.model, stream: parts.stream, ...(flags && { flags }) } : undefined;
  const path = kind.path ? kind.path(call!) : target.path;
  const sent = kind.prepareBody ? kind.prepareBody(body, call!) : body;
  // A kind that makes its own paths leaves the protocol's query parameters (Messages' `?beta=true`) out.
  return { path: forwarded === undefined || kind.path ? path : forwardedPathFor(path, forwarded), body: JSON.stringify(sent), headers };
}

/** The flags of each named header, taken off `headers` (the call's own object). */
function takeFlags(headers: Record<string, string>, names: readonly string[]): Record<string, string[]> {
  const flags: Record<string, string[]> = {};
  for (const name of names) {
    const value = headers[name];
    if (value === undefined) continue;
    delete headers[name];
    flags[name] = value.split(',').map(flag => flag.trim()).filter(flag => flag !== '');
  }
  return flags;
}
