import type { ConversationCodec, JSONObject } from '@signalbox/core';
import type { ConversationDependencies } from './conversation-dependencies';

/**
 * The stored items a request references, by id, read for the caller's account only (another
 * account's item is as unknown as one never made). The first id that matches nothing is a 404
 * naming it.
 */
export async function resolveItemReferences(
  conversation: ConversationCodec,
  accountId: string,
  ids: readonly string[],
  dependencies: ConversationDependencies,
): Promise<Map<string, JSONObject>> {
  if (ids.length === 0) return new Map();
  const found = await dependencies.store.findItems(accountId, [...new Set(ids)], dependencies.now());
  const missing = ids.find(id => !found.has(id));
  if (missing !== undefined) throw conversation.notFound('item', missing, 'input');
  return found as Map<string, JSONObject>;
}
