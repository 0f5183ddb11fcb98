import type { ResponseStore, StoredResponse } from '@signalbox/accounts';
import type { ConnectionResponses } from '../exchange/exchange-transport';
import type { ConversationDependencies } from './conversation-dependencies';

/** A connection's memory of one response: its latest, replaced by the next. */
export function createConnectionResponses(): ConnectionResponses {
  let latest: StoredResponse | undefined;
  return {
    get: (accountId, id) => (latest?.id === id && latest.accountId === accountId ? latest : undefined),
    keep(record) {
      latest = record;
    },
  };
}

/**
 * The conversation dependencies seen from a connection: its own latest response is found first (then
 * the store), and `saving` keeps a `store: false` answer in the connection instead of the store.
 */
export function connectionConversations(
  dependencies: ConversationDependencies,
  connection: ConnectionResponses,
): { reading: ConversationDependencies; saving: ConversationDependencies } {
  const { store } = dependencies;
  const reading: ResponseStore = {
    ...bind(store),
    getResponse: async (accountId, id, now) => connection.get(accountId, id) ?? store.getResponse(accountId, id, now),
  };
  const saving: ResponseStore = {
    ...bind(store),
    saveResponse: async record => connection.keep(record),
  };
  return { reading: { ...dependencies, store: reading }, saving: { ...dependencies, store: saving } };
}

function bind(store: ResponseStore): ResponseStore {
  return {
    saveResponse: (record, retention) => store.saveResponse(record, retention),
    getResponse: (accountId, id, now) => store.getResponse(accountId, id, now),
    deleteResponse: (accountId, id) => store.deleteResponse(accountId, id),
    findItems: (accountId, itemIds, now) => store.findItems(accountId, itemIds, now),
    deleteExpiredResponses: now => store.deleteExpiredResponses(now),
  };
}
