import {
  assertNever,
  createId,
  isJSONObject,
  type EncodeContext,
  type GenerationResponse,
  type JSONObject,
  type OutputPart,
} from '@signalbox/core';
import { encodeAnthropicStopReason } from '../stop-reason/encode-anthropic-stop-reason';
import { encodeAnthropicUsage } from '../usage/encode-anthropic-usage';

/**
 * IR → the client's Messages JSON, shaped as the API writes it: the fields it always sends (`null`
 * where it sends `null`), none it leaves out when empty (a text block has no `citations`, which
 * strict clients refuse as `null`). `model` is the client's model ID. Reasoning without an Anthropic signature is left out: an unsigned thinking
 * block would break the client's next request to Anthropic, which refuses replayed thinking
 * without its signature.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
export function encodeAnthropicResponse(response: GenerationResponse, context: EncodeContext): JSONObject {
  const content: JSONObject[] = [];
  for (const part of response.content) {
    const block = encodeOutputPart(part);
    if (block !== undefined) content.push(block);
  }
  const hasToolUse = content.some(block => block.type === 'tool_use');
  return {
    id: createId('msg_'),
    type: 'message',
    role: 'assistant',
    model: context.request.model,
    content,
    ...encodeAnthropicStopReason(response.finishReason, hasToolUse),
    container: null,
    diagnostics: null,
    usage: encodeAnthropicUsage(response.usage),
  };
}

function encodeOutputPart(part: OutputPart): JSONObject | undefined {
  switch (part.type) {
    case 'text':
    case 'refusal':
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'reasoning':
      if (part.signature) return { type: 'thinking', thinking: part.text, signature: part.signature };
      if (part.redactedData) return { type: 'redacted_thinking', data: part.redactedData };
      return undefined;
    case 'tool-call':
      return {
        type: 'tool_use',
        id: part.callId,
        name: part.name,
        input: parseToolInput(part.arguments),
        caller: { type: 'direct' },
      };
    default:
      return assertNever(part, 'IR output part');
  }
}

// `input` must be an object; arguments that are not a JSON object (e.g. cut by max_tokens) become `{}`.
function parseToolInput(argumentsText: string): JSONObject {
  try {
    const input: unknown = JSON.parse(argumentsText);
    return isJSONObject(input) ? input : {};
  } catch {
    return {};
  }
}
