/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'cookie',
  'set-cookie',
  'x-goog-api-key',
]);
const SIGNED_QUERY_PARAMETERS = /^(x-amz-(signature|credential|security-token)|x-goog-(signature|credential)|signature|sig|token|access_token|api[-_]?key|key|code|se|sp|sv)$/i;
const SECRET_FIELDS = /^(api[-_]?key|secret|token|password|authorization|x-api-key|cookie)$/i;
const PROMPT_FIELDS = new Set(['input', 'messages', 'system', 'instructions', 'prompt', 'content', 'text', 'tools', 'arguments', 'delta']);

/** Headers with credentials and cookies replaced; safe to log or share. */
export function redactHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, unknown> {
  const safe: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) safe[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value;
  return safe;
}

/** A URL (absolute or a path) with signed or secret query parameters replaced. */
export function redactURL(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const parameters = new URLSearchParams(url.slice(question + 1));
  for (const name of [...parameters.keys()]) if (SIGNED_QUERY_PARAMETERS.test(name)) parameters.set(name, REDACTED);
  return `${url.slice(0, question)}?${parameters.toString()}`;
}

/**
 * A deep copy of a diagnostic value with credentials, cookies, prompt text and signed URLs removed:
 * header maps and secret-named fields are masked, prompt-bearing fields (`input`, `messages`,
 * `system`, `content`, …) are replaced whole, strings that look like URLs lose signed parameters.
 * For hosts that share diagnostics; the gateway's own logs never contain these in the first place.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? redactURL(value) : value;
  if (Array.isArray(value)) return value.map(item => redact(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const safe: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (name === 'headers' && typeof item === 'object' && item !== null) safe[name] = redactHeaders(item as Record<string, string>);
    else if (SECRET_FIELDS.test(name) || PROMPT_FIELDS.has(name)) safe[name] = REDACTED;
    else safe[name] = redact(item, depth + 1);
  }
  return safe;
}

/** Credential shapes worth never echoing: this gateway's keys and console tokens, and common providers'. */
const SECRET_PATTERN =
  /sbx-admin-[0-9a-f]{16,}|sbx-[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|Bearer\s+[A-Za-z0-9._~+/-]{16,}=*/g;

/** Text with anything shaped like a credential replaced: for messages that quote client or upstream input. */
export function scrubSecrets(text: string): string {
  return text.replace(SECRET_PATTERN, REDACTED);
}
