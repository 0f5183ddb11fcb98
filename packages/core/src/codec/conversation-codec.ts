import type { GatewayError } from '../errors/gateway-error';
import type { JSONObject } from '../json';
import type { SSEMessage } from '../sse-message';

/** What a request asks of the conversations the gateway keeps, read from its body without changing it. */
export type ConversationReferences = {
  /** False only when the client opted out (`store: false`); the answer is then not kept. */
  store: boolean;
  /** The earlier response this request continues, whose chain of items goes before its input. */
  previousResponseId?: string;
  /** Ids of stored items the input names instead of carrying them, in order. */
  itemReferences: readonly string[];
};

/** Stored state a request is expanded with before it is decoded or forwarded. */
export type ConversationExpansion = {
  /** Items of the earlier turns, oldest first: each stored response's input items, then its output items. */
  history: readonly JSONObject[];
  /** The stored items the request references, by id (every referenced id is present). */
  items: ReadonlyMap<string, JSONObject>;
};

/** One page of a stored response's input items, as the engine cut it. */
export type StoredItemPage = { items: readonly JSONObject[]; hasMore: boolean };

/** Which page of input items a client asked for. */
export type StoredItemQuery = {
  /** An item id: the page starts after it, in the page's order. */
  after?: string;
  /** An item id: the page ends before it, in the page's order. */
  before?: string;
  limit: number;
  order: 'asc' | 'desc';
};

/**
 * A protocol whose clients continue conversations the gateway keeps (Responses: `store`,
 * `previous_response_id`, `item_reference`). The codec owns every wire shape; the engine owns the
 * store, the account scoping and retention, so it never reads a field of the protocol itself.
 */
export interface ConversationCodec {
  /** Reads the body's references and its `store` choice. Cheap: top-level fields and one walk over the input. */
  readReferences(body: JSONObject): ConversationReferences;
  /**
   * The body as it would be without stored state: the history before the input, each reference
   * replaced by its item, the reference to the previous response removed. A new object.
   */
  expandRequest(body: JSONObject, expansion: ConversationExpansion): JSONObject;
  /**
   * The request's own input items (not the history), each with an `id`: the client's, or a fresh one
   * of the item's kind. New objects; the body is not changed.
   */
  inputItemsOf(body: JSONObject): JSONObject[];
  /** The output items of a response object as the client received it. */
  outputItemsOf(response: JSONObject): JSONObject[];
  /** The response object of a JSON answer worth keeping (complete or incomplete), else `undefined`. */
  responseOfAnswer(body: JSONObject): JSONObject | undefined;
  /** The response object carried by a stream's terminal frame worth keeping, else `undefined`. Cheap for other frames. */
  responseOfStreamFrame(message: SSEMessage): JSONObject | undefined;
  /** The id a response object carries, for checking it against what the client got. */
  responseIdOf(response: JSONObject): string | undefined;
  /** The 404 for a stored response or item that is unknown to the caller's account (or expired). */
  notFound(kind: 'response' | 'previous-response' | 'item', id: string, param?: string): GatewayError;
  /** Reads and validates the query of the input-items list (400 naming the parameter). */
  decodeItemQuery(query: Readonly<Record<string, unknown>>): StoredItemQuery;
  /** The answer to deleting a stored response. */
  encodeDeleted(id: string): JSONObject;
  /** The answer listing one page of a stored response's input items. */
  encodeItemPage(page: StoredItemPage): JSONObject;
}
