import { createId, type Compaction, type GenerationRequest, type JSONObject, type SSEMessage } from '@signalbox/core';
import {
  completionTime,
  createOpenAIResponsesEcho,
  createOpenAIResponsesObject,
} from '../response/create-openai-responses-object';
import { encodeOpenAIResponsesUsage } from '../response/openai-responses-usage';

/**
 * The `CompactedResponse` of `POST /v1/responses/compact`: the user messages, then one compaction
 * item (openai 7.x `CompactedResponse`, `ResponseCompactionItem`).
 * @see https://platform.openai.com/docs/api-reference/responses/compact
 */
export function encodeOpenAIResponsesCompactedResponse(compaction: Compaction): JSONObject {
  return {
    id: createId('resp_'),
    object: 'response.compaction',
    created_at: compaction.createdAt,
    output: [...compaction.keptItems, compactionItem(compaction)],
    usage: encodeOpenAIResponsesUsage(compaction.usage),
  };
}

/** A `POST /v1/responses` answer to an input that ended with `compaction_trigger`: the compaction item is its output. */
export function encodeOpenAIResponsesCompactionTurn(compaction: Compaction, request: GenerationRequest): JSONObject {
  return turnObject(createId('resp_'), compaction, request, 'completed');
}

/** The same answer streamed: created, in progress, the compaction item added and done, completed. */
export function encodeOpenAIResponsesCompactionTurnStream(compaction: Compaction, request: GenerationRequest): SSEMessage[] {
  const id = createId('resp_');
  const item = compactionItem(compaction);
  const started = turnObject(id, compaction, request, 'in_progress');
  const events: [string, JSONObject][] = [
    ['response.created', { response: started }],
    ['response.in_progress', { response: started }],
    ['response.output_item.added', { output_index: 0, item }],
    ['response.output_item.done', { output_index: 0, item }],
    ['response.completed', { response: turnObject(id, compaction, request, 'completed') }],
  ];
  return events.map(([type, payload], sequenceNumber) => ({
    event: type,
    data: JSON.stringify({ type, sequence_number: sequenceNumber, ...payload }),
  }));
}

function turnObject(id: string, compaction: Compaction, request: GenerationRequest, status: 'in_progress' | 'completed'): JSONObject {
  const completed = status === 'completed';
  return createOpenAIResponsesObject({
    id,
    createdAt: compaction.createdAt,
    echo: createOpenAIResponsesEcho(request),
    status,
    output: completed ? [compactionItem(compaction)] : [],
    usage: completed ? encodeOpenAIResponsesUsage(compaction.usage) : null,
    completedAt: completed ? completionTime(compaction.createdAt) : null,
  });
}

function compactionItem(compaction: Compaction): JSONObject {
  return { id: compaction.item.id, type: 'compaction', encrypted_content: compaction.item.encryptedContent };
}
