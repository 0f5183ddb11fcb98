import { isJSONObject, type ConversationReferences, type JSONObject, type JSONValue } from '@signalbox/core';

/**
 * What a `POST /v1/responses` body asks of stored state: `store` (true unless the client sent
 * `false`, the protocol's default), `previous_response_id`, and the ids of its `item_reference`
 * input items. Reads the parsed body without copying it; malformed values are left for the decoder,
 * which names the field.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function readOpenAIResponsesReferences(body: JSONObject): ConversationReferences {
  const references: ConversationReferences = { store: body.store !== false, itemReferences: [] };
  const previous = body.previous_response_id;
  if (typeof previous === 'string' && previous !== '') references.previousResponseId = previous;
  if (Array.isArray(body.input)) {
    const ids: string[] = [];
    for (const item of body.input) {
      const id = referencedItemId(item);
      if (id !== undefined) ids.push(id);
    }
    references.itemReferences = ids;
  }
  return references;
}

/**
 * The id an input item references, when it is a reference: `{ "type": "item_reference", "id" }`, or
 * the older shape the API still takes, an object with only an `id` (no `type`, no `role`).
 */
export function referencedItemId(item: JSONValue | undefined): string | undefined {
  if (!isJSONObject(item) || typeof item.id !== 'string') return undefined;
  if (item.type === 'item_reference') return item.id;
  return item.type === undefined && item.role === undefined ? item.id : undefined;
}
