import { createHash } from 'node:crypto';

/**
 * OpenAI answers a 400 for a tool-call id longer than 40 characters in the history (ids minted by
 * other vendors can be longer).
 * @see https://platform.openai.com/docs/api-reference/chat
 */
const MAX_TOOL_CALL_ID_LENGTH = 40;

/**
 * A tool-call id OpenAI accepts. Ids that fit pass unchanged; longer ones (from other systems) map
 * deterministically, so a call and its result in the same request still match after mapping.
 */
export function toOpenAIChatToolCallId(id: string): string {
  if (id.length <= MAX_TOOL_CALL_ID_LENGTH) return id;
  return `call_${createHash('sha256').update(id).digest('base64url').slice(0, 32)}`;
}
