import { isJSONObject, isShowableClientName, unsupportedParameter, type JSONObject, type TranslationWarning } from '@signalbox/core';

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

/**
 * The `providerOptions['openai-responses']` key marking `tool_choice: "required"` when every tool
 * offered is one only a Responses upstream has (no function is left to call elsewhere). A choice
 * object with no IR form (`{type:'web_search'}`, `{type:'allowed_tools', …}`, `{type:'custom', name}`)
 * rides in `providerOptions['openai-responses'].tool_choice` as sent instead.
 */
export const RESPONSES_ONLY_TOOL_CHOICE = 'responses_only_tool_choice';

const ONLY_RESPONSES_ROUTES =
  "this model's upstream speaks another protocol. Only routes whose upstream speaks the Responses API can serve it: pick such a model, or remove it";

/**
 * Responses-only options whose results the answer carries: replayed items of built-in tools run on
 * OpenAI's side (search results, file hits, code output already in the conversation) and
 * `moderation`, which adds its verdicts to the response. Dropping them would change the answer, so a
 * route whose upstream speaks another protocol refuses the request with a 400 naming the item or
 * field and the routes that can serve it. So does a `tool_choice` that forces such a tool: without
 * it the model could not do what the client demanded.
 */
export function refuseResponsesOnlyOptions(options: JSONObject): void {
  const items = options[RESPONSES_ONLY_ITEMS];
  if (Array.isArray(items) && items.length > 0) {
    throw unsupportedParameter(['input'], `input items of type '${String(items[0])}' come from a tool run by OpenAI's Responses API, and ${ONLY_RESPONSES_ROUTES}`);
  }
  if (isJSONObject(options.tool_choice)) {
    const type = identifierOrUndefined(options.tool_choice.type) ?? 'unknown';
    throw unsupportedParameter('tool_choice', `tool_choice of type '${type}' forces a tool that OpenAI's Responses API runs, and ${ONLY_RESPONSES_ROUTES}`);
  }
  if (options[RESPONSES_ONLY_TOOL_CHOICE] === 'required') {
    throw unsupportedParameter('tool_choice', `tool_choice 'required' asks for a call, but every tool offered is run by OpenAI's Responses API, and ${ONLY_RESPONSES_ROUTES}`);
  }
  if (options.moderation !== undefined) {
    throw unsupportedParameter('moderation', `moderation results come from OpenAI's Responses API, and ${ONLY_RESPONSES_ROUTES}`);
  }
}

/**
 * Built-in tools (`web_search`, `file_search`, …) and custom tools merely offered to the model: a
 * route whose upstream speaks another protocol cannot offer them, and the model answers without
 * them, as it may whenever it chooses not to call a tool. Coding agents offer `web_search` on every
 * turn (Codex does by default), so refusing would make every route but Responses ones unusable to
 * them. One warning per tool, named by its type (and name, for custom tools).
 */
export function describeDroppedResponsesOnlyTools(options: JSONObject): TranslationWarning[] {
  const tools = options[RESPONSES_ONLY_TOOLS];
  if (!Array.isArray(tools)) return [];
  return tools.map(tool => {
    const type = isJSONObject(tool) ? identifierOrUndefined(tool.type) : undefined;
    const name = isJSONObject(tool) ? identifierOrUndefined(tool.name) : undefined;
    return {
      type: 'unsupported-field' as const,
      field: ['tools:', type ?? 'unknown', ...(name === undefined ? [] : [name])].join(' '),
      details: "run by OpenAI's Responses API; the route's upstream speaks another protocol, so the model answers without it",
    };
  });
}

/**
 * A tool type or name fit to quote in a response header and the logs: a plain identifier of at most
 * 64 characters (`web_search`, `apply_patch`) that does not look like a credential (a 43-character
 * run of mixed-case letters is a panel token's shape). Anything else the client wrote is not echoed,
 * so a secret or a huge string put there never comes back.
 */
function identifierOrUndefined(value: unknown): string | undefined {
  return isShowableClientName(value, TOOL_IDENTIFIER) ? value : undefined;
}

const TOOL_IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
