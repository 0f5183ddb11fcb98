import type { OpenedCompactions } from '@signalbox/core';
import { openCompactionItems } from '../conversations/compaction/open-compaction-items';
import { createExpansionBudget } from '../conversations/expansion-budget';
import { openConversation, type Conversation } from '../conversations/open-conversation';
import type { ExchangeDependencies } from './exchange-dependencies';
import { principalOf, type ExchangeState } from './exchange-state';

/**
 * The body with the stored state it names (previous response, item references) made items, then
 * its sealed compaction items opened into their summaries, before anything else reads it. All of
 * it shares one expansion budget, so a refusal (413) comes before any answer is built or sent.
 */
export async function openExchangeBody(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  body: unknown,
): Promise<{ conversation: Conversation; opened: OpenedCompactions }> {
  const { codec } = state;
  const principal = principalOf(state);
  const budget = createExpansionBudget(dependencies.conversations.retention.maxExpansionBytes);
  const conversation = await openConversation(codec, body, principal, dependencies.conversations, budget, () => state.conversationKey, state.transport?.connectionResponses);
  const opened = openCompactionItems(codec, conversation.body, principal.account.id, dependencies.compactionSealer, budget);
  return { conversation, opened };
}
