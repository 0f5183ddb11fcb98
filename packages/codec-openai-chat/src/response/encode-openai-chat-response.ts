import { createId, type EncodeContext, type GenerationResponse, type JSONObject } from '@signalbox/core';
import { encodeOpenAIChatFinishReason } from '../openai-chat-finish-reason';
import { encodeOpenAIChatUsage } from '../openai-chat-usage';

/**
 * IR → the CLIENT's `chat.completion` object, complete per the SDK's `ChatCompletion` type. The
 * gateway mints its own `chatcmpl-` id and echoes the client's model ID. `content` is the text,
 * or `null` when the answer is only tool calls or a refusal; reasoning has no Chat field.
 */
export function encodeOpenAIChatResponse(response: GenerationResponse, context: EncodeContext): JSONObject {
  let text: string | undefined;
  let refusal: string | undefined;
  const toolCalls: JSONObject[] = [];
  for (const part of response.content) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'refusal') refusal = (refusal ?? '') + part.text;
    else if (part.type === 'tool-call') {
      // IR `""` means no arguments; clients JSON.parse this string, so they get `{}`.
      toolCalls.push({
        id: part.callId,
        type: 'function',
        function: { name: part.name, arguments: part.arguments || '{}' },
      });
    }
  }
  const content = text ?? (toolCalls.length > 0 || refusal !== undefined ? null : '');
  const message: JSONObject = {
    role: 'assistant',
    content,
    refusal: refusal ?? null,
    ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
    annotations: [],
  };
  return {
    id: createId('chatcmpl-'),
    object: 'chat.completion',
    created: context.createdAt,
    model: context.request.model,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: encodeOpenAIChatFinishReason(response.finishReason, toolCalls.length > 0),
      },
    ],
    usage: encodeOpenAIChatUsage(response.usage),
  };
}
