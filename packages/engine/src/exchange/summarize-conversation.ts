import { createId, GatewayError, type Compaction, type CompactionRequest, type TranslationWarning } from '@signalbox/core';
import { buildSummaryRequest } from '../conversations/compaction/build-summary-request';
import { summaryText } from '../conversations/compaction/summary-text';
import type { UpstreamAnswer } from '../generation/generation-output';
import type { Interruption } from '../interruption/create-interruptions';
import { deliverJSONAnswer } from './deliver-answer';
import type { ExchangeDependencies } from './exchange-dependencies';
import { principalOf, type ExchangeState } from './exchange-state';
import { serveRequest } from './serve-request';

/**
 * Compacts a conversation on the exchange: the route's model writes a summary in one
 * non-streaming generation, routed, admitted, billed and recorded like any other (the client's body
 * is never forwarded: the summary request is the gateway's own), and the summary is sealed for the
 * caller's account into a new compaction item after the kept ones.
 */
export async function summarizeConversation(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  interruption: Interruption,
  { conversation, keptItems }: CompactionRequest,
  warnings: readonly TranslationWarning[],
  signal: AbortSignal,
): Promise<{ compaction: Compaction; headers: Record<string, string> }> {
  const answer = jsonSummary(await serveRequest(state, dependencies, interruption, { request: buildSummaryRequest(conversation), body: undefined, warnings }, signal));
  const summary = summaryText(answer.response);
  // The summary's answer is what the compaction costs: the exchange settles on it.
  deliverJSONAnswer(state, dependencies, answer);
  const sealed = dependencies.compactionSealer.seal(summary, principalOf(state).account.id);
  return {
    compaction: {
      createdAt: Math.floor(state.startedAt / 1000),
      model: conversation.model,
      keptItems,
      item: { id: createId('cmp_'), encryptedContent: sealed },
      usage: answer.usage,
    },
    headers: answer.headers,
  };
}

/** A summary is one JSON answer: a streamed one is let go and is the gateway's own failure. */
function jsonSummary(answer: UpstreamAnswer): Extract<UpstreamAnswer, { kind: 'json' }> {
  if (answer.kind === 'json') return answer;
  answer.abandon();
  throw new GatewayError({ code: 'INTERNAL_ERROR', message: 'The summary of a compaction was streamed; it must be one JSON answer.' });
}
