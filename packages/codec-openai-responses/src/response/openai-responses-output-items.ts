import type { JSONObject } from '@signalbox/core';

// Builders for the output items the gateway sends to Responses clients, shared by the JSON and the
// stream encoders so both emit the same shapes (SDK 7.57 `ResponseOutputItem`).

/** An output item's `status`. */
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** An assistant `message` item holding `output_text` / `refusal` parts. */
export function createMessageItem(id: string, status: ItemStatus, content: JSONObject[]): JSONObject {
  return { type: 'message', id, role: 'assistant', status, content };
}

/** An `output_text` part; annotations are never produced by translation. */
export function createOutputTextPart(text: string): JSONObject {
  return { type: 'output_text', text, annotations: [] };
}

/** A `refusal` part. */
export function createRefusalPart(refusal: string): JSONObject {
  return { type: 'refusal', refusal };
}

/** A `function_call` item: `id` is the item id (`fc_…`), `call_id` the id tool outputs reference. */
export function createFunctionCallItem(
  id: string,
  call: { callId: string; name: string; namespace?: string; arguments: string },
  status: ItemStatus,
): JSONObject {
  return {
    type: 'function_call',
    id,
    call_id: call.callId,
    name: call.name,
    ...(call.namespace !== undefined && { namespace: call.namespace }),
    arguments: call.arguments,
    status,
  };
}

/** A reasoning item; `encrypted_content` only when the IR carries OpenAI's opaque blob. */
export function createReasoningItem(
  id: string,
  text: string,
  encryptedContent: string | undefined,
): JSONObject {
  const item: JSONObject = {
    type: 'reasoning',
    id,
    summary: text === '' ? [] : [{ type: 'summary_text', text }],
  };
  if (encryptedContent !== undefined) item.encrypted_content = encryptedContent;
  return item;
}
