import {
  createId,
  emptyUsage,
  GatewayError,
  type EncodeContext,
  type GenerationResponse,
  type JSONObject,
} from '@signalbox/core';
import { decodeToyFinish, encodeToyFinish } from './toy-finish';
import { toyResponseSchema } from './toy-wire';

/** A toy upstream's JSON answer as the IR; a malformed one is the upstream's failure. */
export function decodeToyResponse(body: unknown): GenerationResponse {
  const parsed = toyResponseSchema.safeParse(body);
  if (!parsed.success) throw new GatewayError({ code: 'UPSTREAM_FAILED', message: 'The toy upstream answered with a malformed body.' });
  const { id, model, text, finish } = parsed.data;
  return { id, model, content: [{ type: 'text', text }], finishReason: decodeToyFinish(finish), usage: emptyUsage() };
}

/** The IR as a client's JSON answer: its text parts joined, under the model ID the client sent. */
export function encodeToyResponse(response: GenerationResponse, context: EncodeContext): JSONObject {
  const text = response.content.flatMap(part => (part.type === 'text' ? [part.text] : [])).join('');
  return { id: createId('toy_'), model: context.request.model, text, finish: encodeToyFinish(response.finishReason) };
}
