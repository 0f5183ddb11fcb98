import type { StoredResponse } from '@signalbox/accounts';
import type { ConversationCodec, JSONObject } from '@signalbox/core';
import type { Principal } from '../auth/authenticate';
import type { ConversationDependencies } from './conversation-dependencies';

/** What a kept response records about the request that made it. */
export type KeptRequest = {
  principal: Principal;
  previousResponseId: string | undefined;
  /** The request's own input items, with ids, references replaced. */
  inputItems: readonly JSONObject[];
  /** The conversation key the request was served under, once known (it is kept with the response). */
  conversationKey(): string | undefined;
};

/**
 * Saves the response a client received under the id it received, owned by the caller's account,
 * with the configured time to live and size cap. Never rejects: a save that fails is reported and
 * the answer goes on (a later reference to it is then a 404).
 */
export async function keepResponse(
  conversation: ConversationCodec,
  request: KeptRequest,
  response: JSONObject,
  dependencies: ConversationDependencies,
): Promise<void> {
  try {
    const id = conversation.responseIdOf(response);
    if (id === undefined) return;
    const createdAt = dependencies.now();
    const conversationKey = request.conversationKey();
    const record: StoredResponse = {
      id,
      accountId: request.principal.account.id,
      keyId: request.principal.key.id,
      createdAt,
      expiresAt: createdAt + dependencies.retention.ttlSeconds * 1000,
      ...(request.previousResponseId !== undefined && { previousResponseId: request.previousResponseId }),
      inputItems: request.inputItems.map(item => ({ id: String(item.id), item })),
      response,
      ...(conversationKey !== undefined && { conversationKey }),
    };
    await dependencies.store.saveResponse(record, { maxBytesPerAccount: dependencies.retention.maxBytesPerAccount });
  } catch (error) {
    dependencies.onStoreError(error);
  }
}
