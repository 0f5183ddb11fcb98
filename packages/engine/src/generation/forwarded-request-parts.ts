import { headerValue, type HeaderMap, type ProtocolDescriptor, type TranslationWarning } from '@switchyard/core';
import type { UpstreamTarget } from './upstream-target';

/**
 * What of a client's request besides its body goes on to an upstream of the same protocol: the
 * flags of its descriptor's `forwardedHeaders` (each header's comma-separated values) and its
 * `forwardedQuery` parameters.
 */
export type ForwardedRequestParts = {
  headers: Readonly<Record<string, readonly string[]>>;
  query: Readonly<Record<string, string>>;
};

/** Nothing to forward. */
export const NO_FORWARDED_PARTS: ForwardedRequestParts = { headers: {}, query: {} };

/** Reads the parts the descriptor forwards from the client's headers and parsed query string. */
export function readForwardedParts(
  descriptor: ProtocolDescriptor,
  headers: HeaderMap,
  query: Readonly<Record<string, unknown>> = {},
): ForwardedRequestParts {
  const forwardedHeaders: Record<string, string[]> = {};
  for (const name of descriptor.forwardedHeaders ?? []) {
    const value = headers[name];
    const flags = splitFlags(Array.isArray(value) ? value.join(',') : value);
    if (flags.length > 0) forwardedHeaders[name] = flags;
  }
  const forwardedQuery: Record<string, string> = {};
  for (const name of descriptor.forwardedQuery ?? []) {
    const value = query[name];
    if (typeof value === 'string') forwardedQuery[name] = value;
  }
  return { headers: forwardedHeaders, query: forwardedQuery };
}

/**
 * The per-request headers for an upstream of the client's protocol: each forwarded header holds the
 * upstream's own configured flags, then the client's, comma-joined without repeats.
 */
export function forwardedHeadersFor(target: UpstreamTarget, parts: ForwardedRequestParts): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, flags] of Object.entries(parts.headers)) {
    const configured = splitFlags(target.headers ? headerValue(target.headers, name) : undefined);
    headers[name] = [...new Set([...configured, ...flags])].join(',');
  }
  return headers;
}

/** The upstream's generation path with the forwarded query parameters (`/v1/messages?beta=true`). */
export function forwardedPathFor(target: UpstreamTarget, parts: ForwardedRequestParts): string {
  const query = new URLSearchParams(parts.query).toString();
  return query === '' ? target.path : `${target.path}${target.path.includes('?') ? '&' : '?'}${query}`;
}

/** One warning per client flag an upstream of another protocol cannot honour (`anthropic-beta: <flag>`). */
export function describeDroppedFlags(parts: ForwardedRequestParts): TranslationWarning[] {
  return Object.entries(parts.headers).flatMap(([name, flags]) =>
    flags.map(flag => ({
      type: 'unsupported-field' as const,
      field: `${name}: ${flag}`,
      details: "the route's upstream speaks another protocol",
    })),
  );
}

function splitFlags(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map(flag => flag.trim())
    .filter(flag => flag !== '');
}
