import { storedResponseBytes, type StoredResponse } from '@signalbox/accounts';
import { GatewayError, quoteClientValue, type ConversationCodec, type JSONObject } from '@signalbox/core';
import type { ConversationDependencies } from './conversation-dependencies';
import type { ExpansionBudget } from './expansion-budget';

/** The conversation a `previous_response_id` chain holds. */
export type ResolvedHistory = {
  /** Its items, oldest first. */
  items: JSONObject[];
  /** The conversation key the newest response of the chain was kept with, when it has one. */
  conversationKey: string | undefined;
};

/**
 * The items of the conversation `previousResponseId` ends, oldest first, and its conversation key: for each stored response
 * of the chain (following `previousResponseId` links), its input items then its output items. Only
 * the caller's account is read, so another account's id is as unknown as one never made: a 404
 * naming the id. Each response read is counted against the request's expansion budget (a 413 past
 * it), and a chain of more than `maxChainResponses` responses is a 413 too: both are a conversation
 * too large to continue, not a malformed request.
 */
export async function resolveHistory(
  conversation: ConversationCodec,
  accountId: string,
  previousResponseId: string,
  dependencies: ConversationDependencies,
  budget: ExpansionBudget,
): Promise<ResolvedHistory> {
  const { maxChainResponses } = dependencies.retention;
  const now = dependencies.now();
  const chain: StoredResponse[] = [];
  for (let id: string | undefined = previousResponseId; id !== undefined; ) {
    if (chain.length >= maxChainResponses) throw chainTooLong(previousResponseId, maxChainResponses);
    const stored = await dependencies.store.getResponse(accountId, id, now);
    if (!stored) {
      // The first id is the client's; a link further back that is gone (expired, deleted, dropped by the size cap) breaks the chain the same way.
      throw conversation.notFound('previous-response', id === previousResponseId ? id : previousResponseId);
    }
    budget.spend(storedResponseBytes(stored), 'previous_response_id');
    chain.push(stored);
    id = stored.previousResponseId;
  }
  const conversationKey = chain[0]?.conversationKey;
  const items: JSONObject[] = [];
  for (const stored of chain.reverse()) {
    for (const input of stored.inputItems) items.push(input.item as JSONObject);
    items.push(...conversation.outputItemsOf(stored.response as JSONObject));
  }
  return { items, conversationKey };
}

function chainTooLong(id: string, maxChainResponses: number): GatewayError {
  return new GatewayError({
    code: 'REQUEST_TOO_LARGE',
    message:
      `The conversation ending with response ${quoteClientValue(id)} is too long to continue: more than ${maxChainResponses} responses. ` +
      'Start a new conversation with the items you need in `input` (or compact it first).',
    param: 'previous_response_id',
  });
}
