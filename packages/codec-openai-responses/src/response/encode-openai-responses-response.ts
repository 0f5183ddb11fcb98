import { createId, type EncodeContext, type GenerationResponse, type JSONObject } from '@signalbox/core';
import {
  completionTime,
  createOpenAIResponsesEcho,
  createOpenAIResponsesObject,
} from './create-openai-responses-object';
import { endedWithErrorFailure } from './encode-openai-responses-failure';
import { encodeOpenAIResponsesOutput } from './encode-openai-responses-output';
import { mapOpenAIResponsesStatus } from './map-openai-responses-status';
import { encodeOpenAIResponsesUsage } from './openai-responses-usage';

/**
 * IR → the client's non-streaming Response object with a gateway `resp_` id and the client's own
 * model ID; `length` / `content-filter` finishes are `incomplete` with their reason.
 */
export function encodeOpenAIResponsesResponse(
  response: GenerationResponse,
  context: EncodeContext,
): JSONObject {
  const { status, incompleteDetails } = mapOpenAIResponsesStatus(response.finishReason);
  return createOpenAIResponsesObject({
    id: createId('resp_'),
    createdAt: context.createdAt,
    echo: createOpenAIResponsesEcho(context.request),
    status,
    output: encodeOpenAIResponsesOutput(response.content, status !== 'completed', context.request.tools),
    usage: encodeOpenAIResponsesUsage(response.usage),
    error: status === 'failed' ? endedWithErrorFailure() : null,
    incompleteDetails,
    completedAt: status === 'completed' ? completionTime(context.createdAt) : null,
  });
}
