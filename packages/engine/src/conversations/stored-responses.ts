import { GatewayError, type Codec, type ConversationCodec, type JSONObject } from '@signalbox/core';
import type { Principal } from '../auth/authenticate';
import type { ConversationDependencies } from './conversation-dependencies';
import { pageStoredItems } from './page-stored-items';

/**
 * The endpoints of stored responses (`GET`/`DELETE /v1/responses/{id}`, its input items), for the
 * caller's account only: another account's id, or an expired one, is the same 404 as an unknown one.
 * They read the store and bill nothing.
 */
export type StoredResponses = {
  retrieve(id: string): Promise<JSONObject>;
  delete(id: string): Promise<JSONObject>;
  listInputItems(id: string, query: Readonly<Record<string, unknown>>): Promise<JSONObject>;
};

export function storedResponsesFor(codec: Codec, principal: Principal, dependencies: ConversationDependencies): StoredResponses {
  const conversation = conversationOf(codec);
  const accountId = principal.account.id;
  const find = async (id: string) => {
    const stored = await dependencies.store.getResponse(accountId, id, dependencies.now());
    if (!stored) throw conversation.notFound('response', id);
    return stored;
  };
  return {
    async retrieve(id) {
      return (await find(id)).response as JSONObject;
    },
    async delete(id) {
      await find(id);
      if (!(await dependencies.store.deleteResponse(accountId, id))) throw conversation.notFound('response', id);
      return conversation.encodeDeleted(id);
    },
    async listInputItems(id, query) {
      const page = conversation.decodeItemQuery(query);
      const stored = await find(id);
      return conversation.encodeItemPage(pageStoredItems(stored.inputItems.map(input => input.item as JSONObject), page));
    },
  };
}

function conversationOf(codec: Codec): ConversationCodec {
  if (codec.conversation) return codec.conversation;
  throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: 'This interface keeps no stored responses.' });
}
