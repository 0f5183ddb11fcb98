import { createId, isJSONObject, type JSONObject, type JSONValue } from '@signalbox/core';

/** The id prefixes of the API's own items, so a stored item looks like one the API made. */
const ID_PREFIXES: Readonly<Record<string, string>> = {
  message: 'msg_',
  function_call: 'fc_',
  function_call_output: 'fco_',
  reasoning: 'rs_',
};

/**
 * A request's own `input` as items, each with an `id` (a fresh one of its kind for items sent
 * without), in the shape `GET /v1/responses/{id}/input_items` lists them: a string input is one
 * user message item, a message without `type` gets `type: "message"`, and a message's text content
 * becomes one `input_text` part (`output_text` for the assistant). New objects.
 * @see https://platform.openai.com/docs/api-reference/responses/input-items
 */
export function openAIResponsesInputItemsOf(body: JSONObject): JSONObject[] {
  const input = body.input;
  if (typeof input === 'string') return [withId({ type: 'message', role: 'user', content: input })];
  if (!Array.isArray(input)) return [];
  return input.filter(isJSONObject).map(withId);
}

function withId(item: JSONObject): JSONObject {
  const type = typeof item.type === 'string' ? item.type : item.role !== undefined ? 'message' : undefined;
  const copy: JSONObject = { ...item };
  if (type !== undefined) copy.type = type;
  if (type === 'message' && typeof item.content === 'string') {
    copy.content = [item.role === 'assistant' ? { type: 'output_text', text: item.content, annotations: [] } : { type: 'input_text', text: item.content }];
  }
  if (typeof copy.id !== 'string' || copy.id === '') copy.id = createId(ID_PREFIXES[type ?? ''] ?? 'item_');
  return { id: copy.id, ...copy };
}

/** The `output` items of a response object; an object without them has none. */
export function openAIResponsesOutputItemsOf(response: JSONObject): JSONObject[] {
  const output: JSONValue | undefined = response.output;
  return Array.isArray(output) ? output.filter(isJSONObject) : [];
}
