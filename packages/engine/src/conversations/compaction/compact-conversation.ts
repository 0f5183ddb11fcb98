import { createId, GatewayError, type Compaction, type CompactionRequest, type GenerationRequest, type TranslationWarning } from '@signalbox/core';
import type { UpstreamAnswer } from '../../generation/generation-output';
import { buildSummaryRequest } from './build-summary-request';
import type { CompactionSealer } from './create-compaction-sealer';
import { summaryText } from './summary-text';

type JSONAnswer = Extract<UpstreamAnswer, { kind: 'json' }>;

/** What a compaction borrows from its exchange, so that it is routed, admitted, billed and recorded like a generation. */
export type CompactionContext = {
  serve(request: GenerationRequest, body: unknown, warnings: readonly TranslationWarning[], signal: AbortSignal): Promise<UpstreamAnswer>;
  /** Settles the exchange on the summary's answer (its usage is what the compaction costs). */
  settle(answer: JSONAnswer): void;
  accountId(): string;
  sealer: CompactionSealer;
  /** Unix seconds. */
  createdAt: number;
};

/**
 * Compacts a conversation: the route's model writes a summary in one non-streaming generation
 * through the exchange (the client's body is never forwarded: the summary request is the gateway's
 * own), and the summary is sealed for the caller's account into a new compaction item.
 */
export async function compactConversation(
  { conversation, keptItems }: CompactionRequest,
  warnings: readonly TranslationWarning[],
  signal: AbortSignal,
  context: CompactionContext,
): Promise<{ compaction: Compaction; headers: Record<string, string> }> {
  const answer = await context.serve(buildSummaryRequest(conversation), undefined, warnings, signal);
  if (answer.kind !== 'json') {
    answer.abandon();
    throw new GatewayError({ code: 'INTERNAL_ERROR', message: 'The summary of a compaction was streamed; it must be one JSON answer.' });
  }
  const summary = summaryText(answer.response);
  context.settle(answer);
  return {
    compaction: {
      createdAt: context.createdAt,
      model: conversation.model,
      keptItems,
      item: { id: createId('cmp_'), encryptedContent: context.sealer.seal(summary, context.accountId()) },
      usage: answer.usage,
    },
    headers: answer.headers,
  };
}
