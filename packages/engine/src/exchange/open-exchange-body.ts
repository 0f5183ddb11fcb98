import type { OpenedCompactions } from '@signalbox/core';
import { openCompactionItems } from '../conversations/compaction/open-compaction-items';
import { createExpansionBudget } from '../conversations/expansion-budget';
import { openConversation, type Conversation } from '../conversations/open-conversation';
import type { ExchangeDependencies } from './exchange-dependencies';
import { principalOf, type ExchangeState } from './exchange-state';

/** A body opened: its conversation, and the body with its compaction items opened. */
export type OpenedExchangeBody = { conversation: Conversation; opened: OpenedCompactions };

/**
 * The body with the stored state it names (previous response, item references) made items, then
 * its sealed compaction items opened into their summaries, before anything else reads it. All of
 * it shares one expansion budget, so a refusal (413) comes before any answer is built or sent. A
 * body with no stored state to look up (a protocol without conversations) is opened at once,
 * without a promise.
 */
export function openExchangeBody(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  body: unknown,
): OpenedExchangeBody | Promise<OpenedExchangeBody> {
  const principal = principalOf(state);
  const budget = createExpansionBudget(dependencies.conversations.retention.maxExpansionBytes);
  const conversation = openConversation(state.codec, body, principal, dependencies.conversations, budget, () => state.conversationKey, state.transport?.connectionResponses);
  const open = (opening: Conversation): OpenedExchangeBody => ({
    conversation: opening,
    opened: openCompactionItems(state.codec, opening.body, principal.account.id, dependencies.compactionSealer, budget),
  });
  return conversation instanceof Promise ? conversation.then(open) : open(conversation);
}
