import type { CompactionCodec } from '@signalbox/core';
import { decodeOpenAIResponsesCompactionRequest } from './decode-openai-responses-compaction-request';
import {
  encodeOpenAIResponsesCompactedResponse,
  encodeOpenAIResponsesCompactionTurn,
  encodeOpenAIResponsesCompactionTurnStream,
} from './encode-openai-responses-compaction';
import { openOpenAIResponsesCompactionItems } from './open-openai-responses-compaction-items';

/** Remote compaction's wire shapes on the Responses interface (`POST /v1/responses/compact`, `compaction` items). */
export const openAIResponsesCompaction: CompactionCodec = {
  decodeCompactionRequest: decodeOpenAIResponsesCompactionRequest,
  encodeCompactedResponse: encodeOpenAIResponsesCompactedResponse,
  openCompactionItems: openOpenAIResponsesCompactionItems,
  encodeCompactionTurn: encodeOpenAIResponsesCompactionTurn,
  encodeCompactionTurnStream: encodeOpenAIResponsesCompactionTurnStream,
};
