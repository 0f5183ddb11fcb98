import { join } from 'node:path';
import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { geminiCodec } from '@signalbox/codec-google-gemini';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec, GenerationRequest, BuiltInProtocol, StreamEvent } from '@signalbox/core';
import { formatSSEFrame } from '@signalbox/sse';
import { decodeSSEChunks, readFixture, splitEvery } from '@signalbox/sse/testing';
import { parseSSEText, validateChatStream, validateGeminiStream, validateMessagesStream, validateResponsesStream } from '../stream-validators';

/**
 * Golden cross-protocol translations: a recorded-shape upstream stream, decoded by its protocol's
 * codec and re-encoded for each client protocol, compared byte for byte (ids normalized) with a
 * file snapshot. A change in any direction's wire output shows up here as a reviewable diff.
 */
const CODECS: Record<BuiltInProtocol, Codec> = {
  'openai-responses': openAIResponsesCodec,
  'anthropic-messages': anthropicMessagesCodec,
  'openai-chat': openAIChatCodec,
  'google-gemini': geminiCodec,
};
const FIXTURES: Record<BuiltInProtocol, string> = {
  'openai-responses': join(__dirname, '../../packages/codec-openai-responses/src/__fixtures__'),
  'anthropic-messages': join(__dirname, '../../packages/codec-anthropic-messages/src/__fixtures__'),
  'openai-chat': join(__dirname, '../../packages/codec-openai-chat/src/__fixtures__'),
  'google-gemini': join(__dirname, '../../packages/codec-google-gemini/src/__fixtures__'),
};
const SCENARIOS: Record<BuiltInProtocol, string[]> = {
  'openai-responses': ['text-basic.1.stream.sse', 'reasoning-parallel-calls.1.stream.sse', 'function-call-done-only.1.stream.sse', 'incomplete-length.1.stream.sse', 'error-event.1.stream.sse'],
  'anthropic-messages': ['text-basic.1.stream.sse', 'tool-use-parallel.1.stream.sse', 'thinking-signature.1.stream.sse', 'error-overloaded.1.stream.sse'],
  'openai-chat': ['text-usage.1.stream.sse', 'tool-calls-parallel.1.stream.sse', 'reasoning-compat.1.stream.sse', 'error-mid-stream.1.stream.sse'],
  'google-gemini': ['text-thoughts.1.stream.sse', 'parallel-calls.1.stream.sse', 'error-mid-stream.1.stream.sse', 'blocked-prompt.1.stream.sse'],
};
const VALIDATORS: Record<BuiltInProtocol, (text: string) => string[]> = {
  'openai-responses': text => validateResponsesStream(parseSSEText(text)).violations,
  'anthropic-messages': text => validateMessagesStream(parseSSEText(text)).violations,
  'openai-chat': text => validateChatStream(parseSSEText(text)).violations,
  'google-gemini': text => validateGeminiStream(parseSSEText(text)).violations,
};

// A Gemini client asked for SSE (`?alt=sse`) and for thoughts; the other encoders read only their own options.
const request: GenerationRequest = {
  model: 'client-model',
  system: [],
  messages: [],
  stream: true,
  maxOutputTokens: 1024,
  providerOptions: { 'google-gemini': { alt: 'sse', includeThoughts: true } },
};

function translate(upstream: BuiltInProtocol, client: BuiltInProtocol, bytes: Uint8Array, chunkSize: number): string {
  const decoder = CODECS[upstream].createStreamDecoder();
  const encoder = CODECS[client].createStreamEncoder({ request, createdAt: 1_763_769_600 });
  const events: StreamEvent[] = [];
  for (const message of decodeSSEChunks(splitEvery(bytes, chunkSize))) events.push(...decoder.push(message));
  events.push(...decoder.end());
  const messages = [...events.flatMap(event => encoder.push(event)), ...encoder.end()];
  return messages.map(formatSSEFrame).join('');
}

/** Minted ids and clocks differ per run; the snapshot keeps their shape. */
function normalize(text: string): string {
  return text
    .replace(/\b(resp|msg|rs|fc|call|toolu|chatcmpl)[_-][A-Za-z0-9]{16,}/g, '$1_<id>')
    .replace(/"(completed_at|created_at|created)":\d+/g, '"$1":<time>')
    .replace(/"responseId":"[A-Za-z0-9]{24}"/g, '"responseId":"<id>"');
}

describe.each(Object.keys(SCENARIOS) as BuiltInProtocol[])('from a %s upstream', upstream => {
  describe.each(Object.keys(CODECS) as BuiltInProtocol[])('to a %s client', client => {
    it.each(SCENARIOS[upstream])('%s', scenario => {
      const bytes = readFixture(FIXTURES[upstream], scenario);
      const whole = translate(upstream, client, bytes, bytes.length);
      expect(VALIDATORS[client](whole)).toEqual([]);
      // Chunk boundaries anywhere (7-byte pieces, splitting UTF-8 and frames) change nothing but minted ids.
      expect(normalize(translate(upstream, client, bytes, 7))).toBe(normalize(whole));
      expect(normalize(whole)).toMatchSnapshot();
    });
  });
});
