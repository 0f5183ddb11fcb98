import {
  createId,
  streamEndedEarly,
  type EncodeContext,
  type GatewayError,
  type JSONObject,
  type SSEMessage,
  type StreamEncoder,
  type StreamEvent,
  type StreamFraming,
} from '@signalbox/core';
import { encodeGeminiErrorObject } from '../gemini-error-envelope';
import { encodeGeminiFinishReason } from '../gemini-finish-reason';
import { includesThoughts, streamsAsSSE } from '../gemini-options';
import { encodeGeminiUsage } from '../gemini-usage';
import { parseArguments } from '../response/gemini-output-parts';
import { createJSONArrayFraming } from './gemini-json-array-framing';

type Call = { callId: string; name: string; arguments: string };

/**
 * IR events → a Gemini client's stream: one `GenerateContentResponse` chunk per text or thought
 * delta and per whole function call, the last with `finishReason` and `usageMetadata`; an error as
 * `{ error }`. With `?alt=sse` each chunk is an SSE `data:` frame, else an element of one JSON array
 * written as it grows (`framing`).
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export function createGeminiStreamEncoder(context: EncodeContext): StreamEncoder {
  const includeThoughts = includesThoughts(context.request);
  const responseId = createId('');
  const calls = new Map<string, Call>();
  const thinking = new Map<string, boolean>();
  let signature: string | undefined;
  let finished = false;
  const chunk = (parts: JSONObject[], extra: JSONObject = {}): SSEMessage => {
    const content = { role: 'model', parts: signature === undefined ? parts : signLast(parts) };
    return { data: JSON.stringify({ candidates: [{ content, index: 0, ...extra }], modelVersion: context.request.model, responseId }) };
  };
  const signLast = (parts: JSONObject[]): JSONObject[] => {
    const signed = [...parts.slice(0, -1), { ...parts.at(-1), thoughtSignature: signature! }];
    signature = undefined;
    return signed;
  };
  const fail = (error: GatewayError): SSEMessage[] => {
    finished = true;
    return [{ data: JSON.stringify({ error: encodeGeminiErrorObject(error, '') }) }, ...closing];
  };
  const framing: StreamFraming | undefined = streamsAsSSE(context.request) ? undefined : createJSONArrayFraming();
  const closing: SSEMessage[] = framing ? [{ event: 'close', data: '' }] : [];
  const encoder: StreamEncoder = {
    push(event: StreamEvent): SSEMessage[] {
      if (finished) return [];
      switch (event.type) {
        case 'text-delta':
        case 'refusal-delta':
          return event.delta === '' ? [] : [chunk([{ text: event.delta }])];
        case 'reasoning-start':
          thinking.set(event.id, false);
          return [];
        case 'reasoning-delta':
          thinking.set(event.id, true);
          return includeThoughts && event.delta !== '' ? [chunk([{ text: event.delta, thought: true }])] : [];
        case 'reasoning-end':
          return endReasoning(event, thinking.get(event.id) === true);
        case 'tool-call-start':
          calls.set(event.id, { callId: event.callId, name: event.toolName, arguments: '' });
          return [];
        case 'tool-call-delta':
          calls.get(event.id)!.arguments += event.argumentsDelta;
          return [];
        case 'tool-call-end': {
          const call = calls.get(event.id)!;
          const args = parseArguments(event.arguments ?? call.arguments) as JSONObject;
          return [chunk([{ functionCall: { id: call.callId, name: call.name, args } }])];
        }
        case 'response-end': {
          finished = true;
          const extra = { finishReason: encodeGeminiFinishReason(event.finishReason) };
          const last = { ...JSON.parse(chunk(signature === undefined ? [] : [{ text: '' }], extra).data), usageMetadata: encodeGeminiUsage(event.usage) };
          return [{ data: JSON.stringify(last) }, ...closing];
        }
        case 'error':
          return fail(event.error);
        default:
          return [];
      }
    },
    end: () => (finished ? [] : fail(streamEndedEarly())),
    ...(framing && { framing }),
  };
  /** A signature without thought text waits for the next part; thought text the client sees takes its own. */
  function endReasoning(event: Extract<StreamEvent, { type: 'reasoning-end' }>, hadText: boolean): SSEMessage[] {
    if (event.signature === undefined) return [];
    if (!hadText) {
      signature = event.signature;
      return [];
    }
    return includeThoughts ? [chunk([{ text: '', thought: true, thoughtSignature: event.signature }])] : [];
  }
  return encoder;
}
