import type { ConversationCodec, JSONObject } from '@signalbox/core';
import type { ConversationDependencies } from './conversation-dependencies';
import type { ExpansionBudget } from './expansion-budget';

/**
 * The stored items a request references, by id, read for the caller's account only (another
 * account's item is as unknown as one never made). The first id that matches nothing is a 404
 * naming it. Each item is read once however often it is referenced, but counted against the
 * request's expansion budget at its stored size times the times it appears, as it will be expanded.
 */
export async function resolveItemReferences(
  conversation: ConversationCodec,
  accountId: string,
  ids: readonly string[],
  dependencies: ConversationDependencies,
  budget: ExpansionBudget,
): Promise<Map<string, JSONObject>> {
  if (ids.length === 0) return new Map();
  const occurrences = new Map<string, number>();
  for (const id of ids) occurrences.set(id, (occurrences.get(id) ?? 0) + 1);
  const found = await dependencies.store.findItems(accountId, [...occurrences.keys()], dependencies.now());
  const missing = ids.find(id => !found.has(id));
  if (missing !== undefined) throw conversation.notFound('item', missing, 'input');
  const items = new Map<string, JSONObject>();
  for (const [id, times] of occurrences) {
    const { item, bytes } = found.get(id)!;
    budget.spend(bytes * times, 'input');
    items.set(id, item as JSONObject);
  }
  return items;
}
