import {
  createValidationError,
  isJSONObject,
  refuseForeignFields,
  type DecodeOptions,
  type GenerationRequest,
  type JSONObject,
  type Translated,
  type TranslationWarning,
} from '@signalbox/core';
import { toyRequestSchema } from './toy-wire';

const TOY_FIELDS: ReadonlySet<string> = new Set(Object.keys(toyRequestSchema.shape));

/**
 * A client's body as the IR: the prompt becomes the one user turn. Throws a 400 naming the field,
 * and where it belongs for a field of the gateway's other endpoints.
 */
export function decodeToyRequest(body: unknown, options: DecodeOptions = {}): Translated<GenerationRequest> {
  if (isJSONObject(body)) refuseForeignFields(body, options, TOY_FIELDS);
  const parsed = toyRequestSchema.safeParse(body);
  if (!parsed.success) throw createValidationError(parsed.error.issues, 'A toy request is { model, prompt, stream? }.');
  const { model, prompt, stream = false } = parsed.data;
  return {
    value: { model, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }], stream },
    warnings: [],
  };
}

/**
 * The IR as a toy upstream's body: system text and every user text, in order, joined into one
 * prompt. What a prompt cannot carry (earlier answers, tools, media, sampling settings) is dropped
 * and reported.
 */
export function encodeToyRequest(request: GenerationRequest, upstreamModel: string): Translated<JSONObject> {
  const warnings: TranslationWarning[] = [];
  const texts = request.system.map(part => part.text);
  for (const message of request.messages) {
    if (message.role === 'user' || message.role === 'system') {
      for (const part of message.content) {
        if (part.type === 'text') texts.push(part.text);
        else warnings.push({ type: 'unsupported-field', field: 'messages', details: `${part.type} parts are dropped` });
      }
    } else {
      warnings.push({ type: 'lossy-conversion', field: 'messages', details: `${message.role} turns are dropped from the prompt` });
    }
  }
  for (const field of ['tools', 'maxOutputTokens', 'temperature', 'topP', 'stopSequences', 'responseFormat'] as const) {
    if (request[field] !== undefined) warnings.push({ type: 'unsupported-field', field });
  }
  return { value: { model: upstreamModel, prompt: texts.join('\n'), stream: request.stream }, warnings };
}
