import { isJSONObject, unsupportedParameter, type JSONObject } from '@switchyard/core';

/**
 * The `providerOptions['openai-responses']` key holding the tools only a Responses upstream can run
 * (built-in tools such as `web_search`, custom tools), exactly as the client sent them.
 */
export const RESPONSES_ONLY_TOOLS = 'responses_only_tools';

/**
 * The `providerOptions['openai-responses']` key listing the types of replayed built-in tool items
 * (`web_search_call`, …) in `input`: same-protocol routes forward them in the client's body; they
 * have no IR form, so no translated route can.
 */
export const RESPONSES_ONLY_ITEMS = 'responses_only_items';

const ONLY_RESPONSES_ROUTES =
  "this model's upstream speaks another protocol. Only routes whose upstream speaks the Responses API can serve it: pick such a model, or remove it";

/**
 * Responses-only options whose results the answer carries: built-in tools run on OpenAI's side
 * (search results, file hits, code output) and `moderation` adds its verdicts to the response.
 * Dropping them would change the answer, so a route whose upstream speaks another protocol refuses
 * the request with a 400 naming the tool or field and the routes that can serve it.
 */
export function refuseResponsesOnlyOptions(options: JSONObject): void {
  const tools = options[RESPONSES_ONLY_TOOLS];
  if (Array.isArray(tools) && tools.length > 0) {
    const first = tools[0];
    const type = isJSONObject(first) && typeof first.type === 'string' ? first.type : 'unknown';
    throw unsupportedParameter(['tools'], `the '${type}' tool is run by OpenAI's Responses API, and ${ONLY_RESPONSES_ROUTES}`);
  }
  const items = options[RESPONSES_ONLY_ITEMS];
  if (Array.isArray(items) && items.length > 0) {
    throw unsupportedParameter(['input'], `input items of type '${String(items[0])}' come from a tool run by OpenAI's Responses API, and ${ONLY_RESPONSES_ROUTES}`);
  }
  if (options.moderation !== undefined) {
    throw unsupportedParameter('moderation', `moderation results come from OpenAI's Responses API, and ${ONLY_RESPONSES_ROUTES}`);
  }
}
