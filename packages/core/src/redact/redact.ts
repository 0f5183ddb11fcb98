import { REDACTED, secretRecogniser } from './create-secret-recogniser';
import { SECRET_QUERY_PARAMETERS } from './secret-shapes';

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'cookie',
  'set-cookie',
  'x-goog-api-key',
]);
const SIGNED_QUERY_PARAMETERS = new Set<string>(SECRET_QUERY_PARAMETERS);
const SECRET_FIELDS = /^(api[-_]?key|secret|token|password|authorization|x-api-key|cookie)$/i;
const PROMPT_FIELDS = new Set(['input', 'messages', 'system', 'instructions', 'prompt', 'content', 'text', 'tools', 'arguments', 'delta']);

/** Whether a header's value is a credential or a cookie (`authorization`, `x-api-key`, …), whatever the case of its name. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** Headers with credentials and cookies replaced; safe to log or share. */
export function redactHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, unknown> {
  const safe: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) safe[name] = isSecretHeader(name) ? REDACTED : value;
  return safe;
}

/** A URL (absolute or a path) with signed or secret query parameters replaced. */
export function redactURL(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const parameters = new URLSearchParams(url.slice(question + 1));
  for (const name of [...parameters.keys()]) if (SIGNED_QUERY_PARAMETERS.has(name.toLowerCase())) parameters.set(name, REDACTED);
  return `${url.slice(0, question)}?${parameters.toString()}`;
}

/**
 * A deep copy of a diagnostic value with credentials, cookies, prompt text and signed URLs removed:
 * header maps and secret-named fields are masked, prompt-bearing fields (`input`, `messages`,
 * `system`, `content`, …) are replaced whole, strings that look like URLs lose signed parameters,
 * and any credential shape in a string is scrubbed.
 * For hosts that share diagnostics; the gateway's own logs never contain these in the first place.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (typeof value === 'string') return scrubSecrets(/^https?:\/\//.test(value) ? redactURL(value) : value);
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

/**
 * Text with anything shaped like a credential replaced (`SECRET_SHAPES`): for messages that quote
 * client or upstream input. An engine's `secrets` also knows its upstream keys.
 */
export function scrubSecrets(text: string): string {
  return secretRecogniser.scrub(text);
}
