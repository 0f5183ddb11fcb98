import { isJSONObject, type Codec, type JSONObject } from '@signalbox/core';
import type { Principal } from '../auth/authenticate';
import type { FrameTap } from '../generation/frame-tap';
import type { ConversationDependencies } from './conversation-dependencies';
import type { ExpansionBudget } from './expansion-budget';
import type { ConnectionResponses } from '../exchange/exchange-transport';
import { connectionConversations } from './connection-responses';
import { keepResponse, type KeptRequest } from './keep-response';
import { resolveHistory } from './resolve-history';
import { resolveItemReferences } from './resolve-item-references';

/**
 * One generation's part in the conversations the gateway keeps: the body to generate from (with
 * stored state expanded), and how its answer is kept before the client sees its end.
 */
export type Conversation = {
  /** The client's body, or (when it named stored state) the whole conversation it stands for. */
  body: unknown;
  /** Keeps a JSON answer; call it, and wait for it, before sending the answer. Never rejects. Absent when nothing is kept. */
  keepAnswer?: ((body: JSONObject) => Promise<void>) | undefined;
  /** For a stream: keeps the terminal event's response before that event is written. */
  tap: FrameTap | undefined;
  /** The conversation key kept with the response `previous_response_id` named, when it has one. */
  chainKey: string | undefined;
};

const NO_CONVERSATION: Conversation = { body: undefined, keepAnswer: undefined, tap: undefined, chainKey: undefined };

/**
 * Resolves what a request asks of stored state before its upstream call — the chain of
 * `previous_response_id` and each item reference, for the caller's account only — and prepares to
 * keep its answer unless the client opted out (with the request's conversation key, which
 * `conversationKey` reads once the answer is kept). On a `connection` (a WebSocket), its latest
 * response is found first, and an answer the client opted out of storing is kept there instead. A protocol without conversations (no
 * `codec.conversation`) passes its body through untouched. Throws the protocol's 404 for an id the
 * account does not have, or a 413 once what it names passes the request's expansion budget (before
 * the expanded body is built).
 */
export function openConversation(
  codec: Codec,
  body: unknown,
  principal: Principal,
  dependencies: ConversationDependencies,
  budget: ExpansionBudget,
  conversationKey: () => string | undefined,
  connection?: ConnectionResponses,
): Conversation | Promise<Conversation> {
  // Nothing to look up or keep (a protocol without conversations): the body as it is, at once, without a promise.
  if (!codec.conversation || !isJSONObject(body)) return { ...NO_CONVERSATION, body };
  return openStoredConversation(codec.conversation, body, principal, dependencies, budget, conversationKey, connection);
}

async function openStoredConversation(
  conversation: NonNullable<Codec['conversation']>,
  body: JSONObject,
  principal: Principal,
  dependencies: ConversationDependencies,
  budget: ExpansionBudget,
  conversationKey: () => string | undefined,
  connection: ConnectionResponses | undefined,
): Promise<Conversation> {
  const layered = connection && connectionConversations(dependencies, connection);
  const reading = layered?.reading ?? dependencies;
  const references = conversation.readReferences(body);
  const accountId = principal.account.id;
  const { previousResponseId, itemReferences } = references;
  let expanded: JSONObject = body;
  let own: JSONObject = body;
  let chainKey: string | undefined;
  if (previousResponseId !== undefined || itemReferences.length > 0) {
    const [history, items] = await Promise.all([
      previousResponseId === undefined ? undefined : resolveHistory(conversation, accountId, previousResponseId, reading, budget),
      resolveItemReferences(conversation, accountId, itemReferences, dependencies, budget),
    ]);
    // The request's own items with references replaced (each reference expanded once), then the
    // history before them; a body with only one of the two is expanded once.
    own = itemReferences.length > 0 ? conversation.expandRequest(body, { history: [], items }) : body;
    expanded = history ? conversation.expandRequest(own, { history: history.items, items }) : own;
    chainKey = history?.conversationKey;
  }
  if (!references.store && !layered) return { ...NO_CONVERSATION, body: expanded, chainKey };
  // A connection keeps a `store: false` answer with the whole conversation: it holds no earlier link.
  const kept: KeptRequest = references.store
    ? { principal, previousResponseId, inputItems: conversation.inputItemsOf(own), conversationKey }
    : { principal, previousResponseId: undefined, inputItems: conversation.inputItemsOf(expanded), conversationKey };
  const saving = references.store ? dependencies : layered!.saving;
  const keep = (response: JSONObject) => keepResponse(conversation, kept, response, saving);
  let terminal: JSONObject | undefined;
  return {
    body: expanded,
    chainKey,
    async keepAnswer(answer) {
      const response = conversation.responseOfAnswer(answer);
      if (response) await keep(response);
    },
    tap: {
      observe(message) {
        terminal = conversation.responseOfStreamFrame(message) ?? terminal;
      },
      async beforeEnd() {
        if (terminal) await keep(terminal);
      },
    },
  };
}
