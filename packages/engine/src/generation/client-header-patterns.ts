import type { ProtocolDescriptor } from '@signalbox/core';

/**
 * Headers a client can never have forwarded whatever protocol it speaks, whatever the config lists:
 * the generic credentials (`authorization`, the bare `api-key` many OpenAI-compatible services read,
 * cookies) and the transport's own headers (the gateway frames its own upstream request). Each
 * protocol adds its own credential, version and account headers (`neverForwardedHeadersOf`).
 */
const NEVER_FORWARDED = [
  'authorization',
  'proxy-authorization',
  'api-key',
  'cookie',
  'set-cookie',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'transfer-encoding',
  'content-length',
  'content-type',
  'content-encoding',
  'accept-encoding',
  'expect',
] as const;

/**
 * The headers of a gateway's protocols that a client can never have forwarded, from their
 * descriptors: each key header (the gateway holds the upstream's own), version header with its
 * aliases (the gateway sets it per upstream) and account header (`openai-organization`).
 */
export function neverForwardedHeadersOf(descriptors: readonly ProtocolDescriptor[]): string[] {
  const names = descriptors.flatMap(({ credential, version, accountHeaders = [] }) => [
    ...(credential.kind === 'header' ? [credential.header] : []),
    ...(version ? [version.header, ...version.aliases] : []),
    ...accountHeaders,
  ]);
  return [...new Set(names.map(name => name.toLowerCase()))];
}

/** A lower-case header name, or a prefix of one followed by `*` (`x-codex-*`). */
const PATTERN_SYNTAX = /^[a-z0-9!#$%&'+.^_`|~-]+\*?$/;

/** True when the header `name` (lower case) matches `pattern`: the same name, or any name with the pattern's prefix. */
export function headerMatchesPattern(name: string, pattern: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/**
 * Why a `forwardClientHeaders` pattern is refused, or undefined when it is fine: bad syntax, or a
 * pattern that would match a header the gateway never forwards (`*` would match `authorization`):
 * the protocol-neutral ones, and `neverForwarded` (`neverForwardedHeadersOf` the gateway's codecs).
 */
export function refusedHeaderPattern(pattern: string, neverForwarded: readonly string[] = []): string | undefined {
  if (!PATTERN_SYNTAX.test(pattern)) return 'must be a lower-case header name, or a prefix of one followed by "*"';
  const refused = [...NEVER_FORWARDED, ...neverForwarded].find(name => headerMatchesPattern(name, pattern));
  return refused === undefined ? undefined : `matches '${refused}', which is never forwarded (credentials and transport headers stay with the gateway)`;
}
