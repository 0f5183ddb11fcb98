import { headerValue, isShowableClientName, REDACTED, type HeaderMap, type ProtocolDescriptor, type TranslationWarning } from '@signalbox/core';
import { headerMatchesPattern } from './client-header-patterns';

/**
 * What of a client's request besides its body goes on to an upstream of the same protocol: the
 * flags of its descriptor's `forwardedHeaders` (each header's comma-separated values), its
 * `forwardedQuery` parameters, and the client headers the config's `forwardClientHeaders` lists
 * (`clientHeaders`, values as sent).
 */
export type ForwardedRequestParts = {
  headers: Readonly<Record<string, readonly string[]>>;
  query: Readonly<Record<string, string>>;
  clientHeaders: Readonly<Record<string, string>>;
};

/** Nothing to forward. */
export const NO_FORWARDED_PARTS: ForwardedRequestParts = { headers: {}, query: {}, clientHeaders: {} };

/**
 * Reads the parts the descriptor forwards from the client's headers and parsed query string, and
 * the client headers matching the config's `clientHeaderPatterns` (names, or prefixes ending `*`).
 */
export function readForwardedParts(
  descriptor: ProtocolDescriptor,
  headers: HeaderMap,
  query: Readonly<Record<string, unknown>> = {},
  clientHeaderPatterns: readonly string[] = [],
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
  return { headers: forwardedHeaders, query: forwardedQuery, clientHeaders: readClientHeaders(descriptor, headers, clientHeaderPatterns) };
}

/** The client's headers that match a configured pattern, except those the descriptor forwards as flags. */
function readClientHeaders(descriptor: ProtocolDescriptor, headers: HeaderMap, patterns: readonly string[]): Record<string, string> {
  const selected: Record<string, string> = {};
  if (patterns.length === 0) return selected;
  const flagHeaders = new Set(descriptor.forwardedHeaders ?? []);
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (value === undefined || flagHeaders.has(name)) continue;
    if (patterns.some(pattern => headerMatchesPattern(name, pattern))) selected[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return selected;
}

/**
 * The per-request headers for an upstream of the client's protocol, over `configured` (the headers
 * its credential's calls carry): each forwarded header holds the upstream's own configured flags, then the client's, comma-joined without repeats; each configured
 * client header goes as sent, unless the upstream's config sets that header itself (the operator's
 * value wins).
 */
export function forwardedHeadersFor(configured: Readonly<Record<string, string>>, parts: ForwardedRequestParts): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parts.clientHeaders)) {
    if (headerValue(configured, name) === undefined) headers[name] = value;
  }
  for (const [name, flags] of Object.entries(parts.headers)) {
    const configuredFlags = splitFlags(headerValue(configured, name));
    headers[name] = [...new Set([...configuredFlags, ...flags])].join(',');
  }
  return headers;
}

/** The upstream's generation path with the forwarded query parameters (`/v1/messages?beta=true`). */
export function forwardedPathFor(path: string, parts: ForwardedRequestParts): string {
  const query = new URLSearchParams(parts.query).toString();
  return query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** What a vendor flag looks like (`interleaved-thinking-2025-05-14`): lower case, at most 64 characters. */
const FLAG_SHAPE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * One warning per client flag an upstream of another protocol cannot honour (`anthropic-beta:
 * <flag>`). A flag is named only when it has a flag's shape and holds no credential; any other
 * text sent in the header is shown `[redacted]`, so it never comes back in the warnings header.
 */
export function describeDroppedFlags(parts: ForwardedRequestParts): TranslationWarning[] {
  return Object.entries(parts.headers).flatMap(([name, flags]) =>
    flags.map(flag => ({
      type: 'unsupported-field' as const,
      field: `${name}: ${isShowableClientName(flag, FLAG_SHAPE) ? flag : REDACTED}`,
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
