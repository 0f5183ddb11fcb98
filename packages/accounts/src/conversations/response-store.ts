/** A JSON object as it travels on the wire: one Responses input or output item, or a response object. */
export type StoredJSON = Record<string, unknown>;

/** One item of a stored conversation, under the id clients reference it by (`item_reference`). */
export type StoredItem = {
  id: string;
  /** The item as the client sent it (input) or received it (output), `id` included. */
  item: StoredJSON;
};

/**
 * One stored response: what a Responses request with `store: true` (the protocol's default) leaves
 * behind, owned by the account whose key made it. Stored as the client saw it, whatever protocol the
 * upstream spoke, so it can be read back (`GET /v1/responses/{id}`), listed
 * (`GET /v1/responses/{id}/input_items`) and continued (`previous_response_id`, `item_reference`)
 * on any route.
 */
export type StoredResponse = {
  /** The response id the client received (`resp_…`). */
  id: string;
  accountId: string;
  keyId: string;
  /** Unix milliseconds. */
  createdAt: number;
  /** Unix milliseconds after which the response is gone as if deleted. */
  expiresAt: number;
  /** The response this one continued, when the request named one. */
  previousResponseId?: string;
  /**
   * The request's own input items, in order, each with an id (the gateway gives one to items sent
   * without). References were already replaced by the items they named; earlier turns reached by
   * `previousResponseId` are not repeated here.
   */
  inputItems: readonly StoredItem[];
  /** The response object as the client received it, its `output` items included. */
  response: StoredJSON;
  /**
   * The key of the conversation the response belongs to (opaque, derived by the gateway): a request
   * continuing it by `previous_response_id` keeps the same key, so the whole chain keeps its credential.
   */
  conversationKey?: string;
};

/** A stored item found by the id clients reference it by, with its size. */
export type FoundItem = {
  item: StoredJSON;
  /** The UTF-8 bytes of the item's stored JSON: what expanding a request with it adds, each time. */
  bytes: number;
};

/** How much an account may keep: once over `maxBytesPerAccount`, its oldest responses go first. */
export type ResponseRetention = {
  /** The size cap per account, counted as the UTF-8 bytes of the stored JSON. */
  maxBytesPerAccount: number;
};

/**
 * Stored conversations, part of every account store. Implementations must:
 * - answer only for the owning account: another account's id is the same as an unknown one;
 * - treat a response whose `expiresAt` is at or before `now` as gone;
 * - after `saveResponse`, drop the account's oldest responses while its total exceeds the cap
 *   (never the one just saved);
 * - return copies, never live objects.
 */
export interface ResponseStore {
  /** Keeps a response (replacing one with the same id and account), then applies the retention cap. */
  saveResponse(record: StoredResponse, retention: ResponseRetention): Promise<void>;
  /** The account's response with this id, unless unknown, another account's, or expired at `now`. */
  getResponse(accountId: string, id: string, now: number): Promise<StoredResponse | undefined>;
  /** Deletes the account's response with this id; `false` when there was none to delete. */
  deleteResponse(accountId: string, id: string): Promise<boolean>;
  /**
   * Input and output items of the account's unexpired responses, by item id, each with its size;
   * ids that match nothing are absent from the map. When two responses hold an item with the same
   * id, the newer wins.
   */
  findItems(accountId: string, itemIds: readonly string[], now: number): Promise<Map<string, FoundItem>>;
  /** Deletes every response expired at `now`; returns how many. */
  deleteExpiredResponses(now: number): Promise<number>;
}
