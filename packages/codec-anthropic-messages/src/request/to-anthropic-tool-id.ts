import { createHash } from 'node:crypto';

const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * A tool call id Anthropic accepts (`^[a-zA-Z0-9_-]+$`). Valid ids pass unchanged; others (Chat's
 * `functions.get_weather:0`, ids with dots or slashes) map to `toolu_` + a hash of the original, so
 * the call and its result map to the same id in every request, without any state kept between
 * requests.
 * @see https://docs.anthropic.com/en/api/messages (`tool_use.id`)
 */
export function toAnthropicToolId(id: string): string {
  if (ANTHROPIC_TOOL_ID.test(id)) return id;
  return `toolu_${createHash('sha256').update(id).digest('base64url').slice(0, 24)}`;
}
