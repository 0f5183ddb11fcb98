import { storedResponseBytes, type StoredResponse } from '@signalbox/accounts';
import { GatewayError, quoteClientValue, type ConversationCodec, type JSONObject } from '@signalbox/core';
import type { ConversationDependencies } from './conversation-dependencies';

/**
 * The items of the conversation `previousResponseId` ends, oldest first: for each stored response
 * of the chain (following `previousResponseId` links), its input items then its output items. Only
 * the caller's account is read, so another account's id is as unknown as one never made: a 404
 * naming the id. A chain longer or larger than the configured bounds is a 400.
 */
export async function resolveHistory(
  conversation: ConversationCodec,
  accountId: string,
  previousResponseId: string,
  dependencies: ConversationDependencies,
): Promise<JSONObject[]> {
  const { maxChainResponses, maxChainBytes } = dependencies.retention;
  const now = dependencies.now();
  const chain: StoredResponse[] = [];
  let bytes = 0;
  for (let id: string | undefined = previousResponseId; id !== undefined; ) {
    if (chain.length >= maxChainResponses) throw chainTooLong(previousResponseId, `more than ${maxChainResponses} responses`);
    const stored = await dependencies.store.getResponse(accountId, id, now);
    if (!stored) {
      // The first id is the client's; a link further back that is gone (expired, deleted, dropped by the size cap) breaks the chain the same way.
      throw conversation.notFound('previous-response', id === previousResponseId ? id : previousResponseId);
    }
    bytes += storedResponseBytes(stored);
    if (bytes > maxChainBytes) throw chainTooLong(previousResponseId, `more than ${maxChainBytes} bytes of stored items`);
    chain.push(stored);
    id = stored.previousResponseId;
  }
  const history: JSONObject[] = [];
  for (const stored of chain.reverse()) {
    for (const input of stored.inputItems) history.push(input.item as JSONObject);
    history.push(...conversation.outputItemsOf(stored.response as JSONObject));
  }
  return history;
}

function chainTooLong(id: string, what: string): GatewayError {
  return new GatewayError({
    code: 'INVALID_REQUEST',
    message:
      `The conversation ending with response ${quoteClientValue(id)} is too long to continue: ${what}. ` +
      'Start a new conversation with the items you need in `input` (or compact it first).',
    param: 'previous_response_id',
  });
}
