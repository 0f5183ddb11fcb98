import {
  createValidationError,
  invalidParameter,
  isJSONObject,
  unknownParameter,
  type CompactionRequest,
  type JSONObject,
  type JSONValue,
  type Translated,
} from '@signalbox/core';
import { decodeOpenAIResponsesRequest } from '../request/decode-openai-responses-request';
import { KNOWN_REQUEST_FIELDS } from '../request/openai-responses-request-schema';

/**
 * The members of `ResponseCompactParams` (openai 7.x) that make up the conversation. The others —
 * prompt cache, service tier, image context — only tune OpenAI's own serving and are left. Codex
 * also sends members of a generation request (`tools`, `parallel_tool_calls`, `reasoning`, `text`),
 * which OpenAI's endpoint accepts: any member a Responses request may carry is accepted and left,
 * since the summary is written without tools, and only a member neither knows is a 400.
 * @see https://platform.openai.com/docs/api-reference/responses/compact
 */
const CONVERSATION_FIELDS = ['model', 'input', 'instructions', 'previous_response_id'] as const;
const SERVING_FIELDS = new Set(['prompt_cache_options', 'image']);

/**
 * Validates a `POST /v1/responses/compact` body: the conversation is read exactly as a generation's
 * `input` (same items, same 400s naming `input[i]`), and every user message is kept verbatim for the
 * compacted output, as OpenAI's compaction does.
 */
export function decodeOpenAIResponsesCompactionRequest(body: unknown): Translated<CompactionRequest> {
  if (!isJSONObject(body)) throw createValidationError([{ path: [], message: 'Expected a JSON object body' }]);
  const unknown = Object.keys(body).find(
    field => !KNOWN_REQUEST_FIELDS.has(field) && !SERVING_FIELDS.has(field),
  );
  if (unknown !== undefined) throw unknownParameter(unknown);
  if (typeof body.model !== 'string' || body.model === '') throw invalidParameter(['model'], 'Required: the model ID to compact with');
  const generationBody: JSONObject = { input: body.input ?? [] };
  for (const field of CONVERSATION_FIELDS) if (body[field] != null && field !== 'input') generationBody[field] = body[field];
  const { value: conversation, warnings } = decodeOpenAIResponsesRequest(generationBody);
  return { value: { conversation, keptItems: keptUserMessages(generationBody.input!) }, warnings };
}

/**
 * The input's user messages as message items (the decoder has already validated them), as the client
 * sent them but with list content. No id is invented: a replayed item with an id the upstream never
 * issued would send a Responses upstream looking for a stored item.
 */
function keptUserMessages(input: JSONValue): JSONObject[] {
  if (typeof input === 'string') return [userMessage({}, [{ type: 'input_text', text: input }])];
  if (!Array.isArray(input)) return [];
  return input.flatMap(item => {
    if (!isJSONObject(item) || item.role !== 'user' || (item.type !== undefined && item.type !== 'message')) return [];
    const content = typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content;
    return Array.isArray(content) ? [userMessage(item, content)] : [];
  });
}

function userMessage(item: JSONObject, content: JSONValue[]): JSONObject {
  return { ...item, type: 'message', role: 'user', content };
}
