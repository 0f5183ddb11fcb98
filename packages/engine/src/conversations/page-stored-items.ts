import type { JSONObject, StoredItemPage, StoredItemQuery } from '@signalbox/core';

/**
 * One page of a response's input items, cursor style: the items in the asked order, those after
 * `after` and before `before` (ids; an id that is not among them leaves that side open), at most
 * `limit` of them, and whether more follow.
 */
export function pageStoredItems(items: readonly JSONObject[], query: StoredItemQuery): StoredItemPage {
  const ordered = query.order === 'asc' ? [...items] : [...items].reverse();
  const afterIndex = query.after === undefined ? -1 : ordered.findIndex(item => item.id === query.after);
  const beforeIndex = query.before === undefined ? -1 : ordered.findIndex(item => item.id === query.before);
  const window = ordered.slice(afterIndex + 1, beforeIndex === -1 ? ordered.length : beforeIndex);
  return { items: window.slice(0, query.limit), hasMore: window.length > query.limit };
}
