import { invalidParameter, isJSONObject, type JSONObject, type OpenedCompactions } from '@signalbox/core';

/**
 * How an opened compaction item reaches the model: a developer message, which every upstream
 * protocol carries in place (Messages and Chat as a system turn).
 */
export const COMPACTION_SUMMARY_PREFIX = 'Summary of the earlier conversation: ';

/**
 * Replaces each `compaction` item of a `POST /v1/responses` body with a developer message carrying
 * its summary, and takes off a final `compaction_trigger` ("Compacts the current context. Must be the
 * final input item.", openai 7.x `ResponseInputItem.CompactionTrigger`). A body without either is
 * returned as it is, so a same-protocol request still forwards the client's own object.
 */
export function openOpenAIResponsesCompactionItems(
  body: unknown,
  open: (encryptedContent: string, path: readonly PropertyKey[]) => string,
): OpenedCompactions {
  if (!isJSONObject(body) || !Array.isArray(body.input)) return { body, triggered: false };
  const input = body.input;
  if (!input.some(item => isJSONObject(item) && (item.type === 'compaction' || item.type === 'compaction_trigger'))) {
    return { body, triggered: false };
  }
  const last = input.length - 1;
  let triggered = false;
  const opened = input.flatMap((item, index): JSONObject[] | typeof item[] => {
    if (!isJSONObject(item)) return [item];
    const path = ['input', index];
    if (item.type === 'compaction_trigger') {
      if (index !== last) throw invalidParameter([...path, 'type'], 'a `compaction_trigger` item must be the final input item');
      triggered = true;
      return [];
    }
    if (item.type !== 'compaction') return [item];
    if (typeof item.encrypted_content !== 'string') {
      throw invalidParameter([...path, 'encrypted_content'], 'Required: the `encrypted_content` of a compaction item');
    }
    const summary = open(item.encrypted_content, path);
    return [{ type: 'message', role: 'developer', content: COMPACTION_SUMMARY_PREFIX + summary }];
  });
  return { body: { ...body, input: opened }, triggered };
}
