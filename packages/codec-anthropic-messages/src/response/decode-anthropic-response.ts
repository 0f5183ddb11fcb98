import { GatewayError, type GenerationResponse, type OutputPart } from '@signalbox/core';
import { anthropicResponseSchema } from '../schema/anthropic-response-schema';
import { mapAnthropicStopReason } from '../stop-reason/map-anthropic-stop-reason';
import { decodeAnthropicUsage } from '../usage/decode-anthropic-usage';
import { decodeAnthropicOutputBlock } from './decode-anthropic-output-block';
import { readCommonAnthropicResponse } from './read-common-anthropic-response';

/** An upstream's non-streaming Messages JSON → IR. Throws `UPSTREAM_FAILED` when it is not a Message. */
export function decodeAnthropicResponse(body: unknown): GenerationResponse {
  const message = readCommonAnthropicResponse(body) ?? anthropicResponseSchema.safeParse(body).data;
  if (message === undefined) {
    throw new GatewayError({
      code: 'UPSTREAM_FAILED',
      message: 'The upstream answered with a malformed body (not an Anthropic Message).',
    });
  }
  const content: OutputPart[] = [];
  for (const block of message.content) {
    const part = decodeAnthropicOutputBlock(block);
    if (part !== undefined) content.push(part);
  }
  const finishReason = mapAnthropicStopReason(message.stop_reason, message.stop_sequence);
  return { id: message.id, model: message.model ?? '', content, finishReason, usage: decodeAnthropicUsage(message.usage) };
}
