import { createId, GatewayError, type GenerationResponse, type OutputPart } from '@signalbox/core';
import { openAIChatResponseSchema, type OpenAIChatResponse } from '../openai-chat-api';
import { decodeOpenAIChatFinishReason } from '../openai-chat-finish-reason';
import { decodeOpenAIChatUsage } from '../openai-chat-usage';
import { readCommonChatResponse } from './read-common-chat-response';

type WireMessage = OpenAIChatResponse['choices'][number]['message'];

/**
 * An UPSTREAM's non-streaming Chat answer → IR. Reads the first choice only (the gateway asks for
 * one); `reasoning_content` (vLLM/DeepSeek) becomes a reasoning part; `tool_calls: []` counts as
 * no calls. A body without a choice is a malformed answer (`UPSTREAM_FAILED`).
 */
export function decodeOpenAIChatResponse(body: unknown): GenerationResponse {
  const answer = readCommonChatResponse(body) ?? parseAnswer(body);
  const choice = answer.choices.find(entry => (entry.index ?? 0) === 0) ?? answer.choices[0];
  if (!choice) throw malformedAnswer();
  const content = decodeMessage(choice.message);
  const hasToolCalls = content.some(part => part.type === 'tool-call');
  return {
    id: answer.id ?? '',
    model: answer.model ?? '',
    content,
    finishReason: decodeOpenAIChatFinishReason(choice.finish_reason, hasToolCalls),
    usage: decodeOpenAIChatUsage(answer.usage),
  };
}

function parseAnswer(body: unknown): OpenAIChatResponse {
  const result = openAIChatResponseSchema.safeParse(body);
  if (!result.success) throw malformedAnswer(result.error);
  return result.data;
}

function malformedAnswer(cause?: Error): GatewayError {
  return new GatewayError({
    code: 'UPSTREAM_FAILED',
    message: 'The upstream answered with a malformed Chat Completions body.',
    ...(cause && { cause }),
  });
}

function decodeMessage(message: WireMessage): OutputPart[] {
  const parts: OutputPart[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning });
  if (message.content) parts.push({ type: 'text', text: message.content });
  if (message.refusal) parts.push({ type: 'refusal', text: message.refusal });
  for (const call of message.tool_calls ?? []) {
    parts.push({
      type: 'tool-call',
      // Some OpenAI-compatible servers omit the id; the client still needs one to answer the call.
      callId: call.id || createId('call_'),
      name: call.function?.name ?? '',
      arguments: call.function?.arguments ?? '',
    });
  }
  return parts;
}
