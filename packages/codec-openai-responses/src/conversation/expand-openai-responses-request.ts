import type { ConversationExpansion, JSONObject, JSONValue } from '@signalbox/core';
import { referencedItemId } from './read-openai-responses-references';

/**
 * A body that named stored state, rewritten as the whole conversation: the earlier turns' items
 * before the input, every `item_reference` replaced by the item it names, `previous_response_id`
 * removed. What goes upstream (or to the decoder) then needs no store of the upstream's own.
 * A string input becomes one user message after the history.
 */
export function expandOpenAIResponsesRequest(body: JSONObject, expansion: ConversationExpansion): JSONObject {
  const { previous_response_id: _previous, ...rest } = body;
  const own: JSONValue[] =
    typeof body.input === 'string'
      ? [{ type: 'message', role: 'user', content: body.input }]
      : Array.isArray(body.input)
        ? body.input.map(item => {
            const id = referencedItemId(item);
            return id === undefined ? item : replayable(expansion.items.get(id)!);
          })
        : [];
  return { ...rest, input: [...expansion.history.map(replayable), ...own] };
}

/**
 * A stored item as it is replayed: without its `id`, which a Responses upstream would look up in
 * its own store (and fail to find, for ids the gateway made or with `store: false`). A reasoning
 * item without `encrypted_content` keeps its id: that id is all an upstream can restore it from.
 */
function replayable(item: JSONObject): JSONObject {
  if (item.type === 'reasoning' && typeof item.encrypted_content !== 'string') return item;
  const { id: _id, ...rest } = item;
  return rest;
}
