import { isJSONObject, type JSONObject, type JSONValue } from '@signalbox/core';

/**
 * A Messages body with the gateway's own cache breakpoints, for a route with `promptCache: "auto"`,
 * unless the body has one of its own (on a block, a tool, a system block, or the top-level automatic
 * `cache_control`): then it is returned as given. The breakpoints go, in the order the API reads the
 * prompt, on the last tool, the last system block, the end of the previous turn's input (the prefix
 * the request before this one cached, read back now) and the end of the newest input (the prefix the
 * next request repeats): at most one in each of four places, the most Anthropic accepts. Thinking
 * blocks and empty text are never marked. The given body is not changed: the blocks that get a
 * breakpoint are copied, with their tool, turn and arrays.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
export function addAnthropicCacheBreakpoints(body: JSONObject): JSONObject {
  if (hasCacheBreakpoint(body)) return body;
  const marked: JSONObject = { ...body };
  const tools = body.tools;
  if (Array.isArray(tools) && isJSONObject(tools.at(-1))) {
    marked.tools = replaceAt(tools, tools.length - 1, { ...(tools.at(-1) as JSONObject), cache_control: breakpoint() });
  }
  const system = markContent(body.system);
  if (system !== undefined) marked.system = system;
  const messages = body.messages;
  if (Array.isArray(messages)) marked.messages = markTurns(messages);
  return marked;
}

/** True when the client marked anything itself. */
function hasCacheBreakpoint(body: JSONObject): boolean {
  if (isMarked(body)) return true;
  if (Array.isArray(body.tools) && body.tools.some(isMarked)) return true;
  if (Array.isArray(body.system) && body.system.some(isMarked)) return true;
  if (!Array.isArray(body.messages)) return false;
  return body.messages.some(message => {
    const content = isJSONObject(message) ? message.content : undefined;
    return Array.isArray(content) && content.some(block => isMarked(block) || (isJSONObject(block) && Array.isArray(block.content) && block.content.some(isMarked)));
  });
}

function isMarked(value: JSONValue | undefined): boolean {
  return isJSONObject(value) && value.cache_control !== undefined && value.cache_control !== null;
}

/** The turns with the end of the newest input and the end of the input before the latest answer marked. */
function markTurns(messages: readonly JSONValue[]): JSONValue[] {
  const newest = lastInputBefore(messages, messages.length);
  let answer = newest - 1;
  while (answer >= 0 && roleOf(messages[answer]) !== 'assistant') answer--;
  const previous = answer < 0 ? -1 : lastInputBefore(messages, answer);
  const marked = [...messages];
  for (const index of [previous, newest]) {
    const turn = messages[index];
    const content = isJSONObject(turn) ? markContent(turn.content) : undefined;
    if (content !== undefined) marked[index] = { ...(turn as JSONObject), content };
  }
  return marked;
}

/** The index of the last turn before `end` that is not the model's (a user or system turn), or -1. */
function lastInputBefore(messages: readonly JSONValue[], end: number): number {
  for (let index = end - 1; index >= 0; index--) if (roleOf(messages[index]) !== 'assistant') return index;
  return -1;
}

function roleOf(message: JSONValue | undefined): unknown {
  return isJSONObject(message) ? message.role : undefined;
}

/**
 * Content (a string, or blocks) with its last block that may carry a breakpoint marked, as blocks;
 * `undefined` when nothing in it may be marked.
 */
function markContent(content: JSONValue | undefined): JSONObject[] | undefined {
  if (typeof content === 'string') return content === '' ? undefined : [{ type: 'text', text: content, cache_control: breakpoint() }];
  if (!Array.isArray(content)) return undefined;
  for (let index = content.length - 1; index >= 0; index--) {
    const block = content[index];
    if (isMarkable(block)) return replaceAt(content, index, { ...block, cache_control: breakpoint() }) as JSONObject[];
  }
  return undefined;
}

/** Anthropic refuses `cache_control` on thinking blocks and on empty text. */
function isMarkable(block: JSONValue | undefined): block is JSONObject {
  if (!isJSONObject(block)) return false;
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return block.type !== 'text' || (typeof block.text === 'string' && block.text !== '');
}

function breakpoint(): JSONObject {
  return { type: 'ephemeral' };
}

function replaceAt(items: readonly JSONValue[], index: number, item: JSONValue): JSONValue[] {
  const copy = [...items];
  copy[index] = item;
  return copy;
}
