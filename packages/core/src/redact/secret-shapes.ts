/**
 * One kind of credential, recognised by its look: regular expression source (flags are the
 * recogniser's). A capture group in it, if any, is context kept in front of the secret (a query
 * parameter's name). A `bare` shape is a random run of base64url characters with no fixed text to
 * anchor it; it is looked for only in texts that hold a run of `BARE_TOKEN_LENGTH` such characters,
 * since a pattern without an anchor costs more than all the others together.
 */
export type SecretShape = { name: string; pattern: string; bare: boolean };

/** The characters of base64url, the alphabet of the panel's random tokens. */
const BASE64URL = 'A-Za-z0-9_\\-';

/** How long a panel session id or CSRF token is: 32 random bytes as base64url. */
export const BARE_TOKEN_LENGTH = 43;

/**
 * Query parameters whose values are credentials or signatures (`?key=…`, `&X-Amz-Signature=…`),
 * without regard to case; Azure's SAS fields (`se`, `sp`, `sv`) go with their signature.
 */
export const SECRET_QUERY_PARAMETERS = [
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'x-goog-signature',
  'x-goog-credential',
  'signature',
  'sig',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'api_key',
  'api-key',
  'apikey',
  'key',
  'client_secret',
  'secret',
  'password',
  'code',
  'se',
  'sp',
  'sv',
] as const;

/**
 * Every credential shape the gateway issues (packages/accounts, packages/panel) and the common
 * shapes of those it is given (upstream vendors' keys, HTTP credentials, a credential in a query
 * string), in one table: a new kind of secret (a cloud token) is one more row. Each gateway shape
 * asks for more than a visible prefix holds (`sbx-AbCdEfGh`, `sbx-console-AbCdEfGh`), so the
 * prefixes the logs show on purpose are not taken for secrets.
 */
export const SECRET_SHAPES: readonly SecretShape[] = [
  { name: 'admin token (sbx-admin- and 48 hex digits)', pattern: 'sbx-admin-[0-9a-f]{16,}', bare: false },
  { name: 'account console token (sbx-console- and 40 base62 characters)', pattern: 'sbx-console-[A-Za-z0-9]{16,}', bare: false },
  { name: 'API key (sbx- and 40 base62 characters)', pattern: 'sbx-[A-Za-z0-9]{20,}', bare: false },
  { name: 'OpenAI or Anthropic key (sk-, sk-proj-, sk-ant-)', pattern: '(?<![A-Za-z0-9])sk-[A-Za-z0-9_\\-]{16,}', bare: false },
  { name: 'AWS access key id', pattern: '(?:AKIA|ASIA)[0-9A-Z]{16}', bare: false },
  { name: 'Google API key', pattern: 'AIza[0-9A-Za-z_\\-]{30,}', bare: false },
  { name: 'GitHub token', pattern: 'gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}', bare: false },
  { name: 'Slack token', pattern: 'xox[abpr]-[A-Za-z0-9\\-]{10,}', bare: false },
  { name: 'HTTP credential (Bearer or Basic and its token)', pattern: `(?:${anyCase('bearer')}|${anyCase('basic')})\\s+[A-Za-z0-9._~+/\\-]{16,}=*`, bare: false },
  {
    name: 'credential in a query string (?key=…, &token=…, &X-Amz-Signature=…)',
    pattern: `([?&;](?:${SECRET_QUERY_PARAMETERS.map(anyCase).join('|')})=)[^&;#\\s"'<>]+`,
    bare: false,
  },
  {
    // The recogniser also asks for both letter cases in the run, which a random token has all but
    // always and a hex digest or a word never does. The character before the run is kept.
    name: 'panel session id or CSRF token (43 base64url characters)',
    pattern: `(^|[^${BASE64URL}])[${BASE64URL}]{${BARE_TOKEN_LENGTH}}(?![${BASE64URL}])`,
    bare: true,
  },
];

/** `bearer` as `[Bb][Ee][Aa][Rr][Ee][Rr]`: case-insensitive inside a case-sensitive pattern (Node 22 has no `(?i:…)`). */
function anyCase(word: string): string {
  return [...word].map(character => (/[a-z]/i.test(character) ? `[${character.toUpperCase()}${character.toLowerCase()}]` : escapeForPattern(character))).join('');
}

/** A literal as regular expression source. */
export function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
