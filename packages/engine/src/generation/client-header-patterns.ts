/**
 * Headers a client can never have forwarded, whatever the config lists: credentials (the gateway
 * holds the upstream's own), the account-selecting OpenAI headers, the version header the gateway
 * sets per upstream, and the transport's own headers (the gateway frames its own upstream request).
 */
const NEVER_FORWARDED = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
  'set-cookie',
  'openai-organization',
  'openai-project',
  'anthropic-version',
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

/** A lower-case header name, or a prefix of one followed by `*` (`x-codex-*`). */
const PATTERN_SYNTAX = /^[a-z0-9!#$%&'+.^_`|~-]+\*?$/;

/** True when the header `name` (lower case) matches `pattern`: the same name, or any name with the pattern's prefix. */
export function headerMatchesPattern(name: string, pattern: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/**
 * Why a `forwardClientHeaders` pattern is refused, or undefined when it is fine: bad syntax, or a
 * pattern that would match a header the gateway never forwards (`x-*` would match `x-api-key`).
 */
export function refusedHeaderPattern(pattern: string): string | undefined {
  if (!PATTERN_SYNTAX.test(pattern)) return 'must be a lower-case header name, or a prefix of one followed by "*"';
  const refused = NEVER_FORWARDED.find(name => headerMatchesPattern(name, pattern));
  return refused === undefined ? undefined : `matches '${refused}', which is never forwarded (credentials and transport headers stay with the gateway)`;
}
