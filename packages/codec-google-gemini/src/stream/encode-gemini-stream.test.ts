import { GatewayError, type SSEMessage, type StreamEvent } from '@signalbox/core';
import { testEncodeContext } from '@signalbox/core/testing';
import { formatSSEFrame } from '@signalbox/sse';
import { decodeSSEChunks } from '@signalbox/sse/testing';
import { decodeMessages } from '../testing/decode-test-helpers';
import { createGeminiStreamEncoder } from './encode-gemini-stream';

const usage = { inputTokens: 10, outputTokens: 7, cacheReadTokens: undefined, cacheWriteTokens: undefined, cacheWrite1hTokens: undefined, reasoningTokens: 2 };
const EVENTS: StreamEvent[] = [
  { type: 'response-start', id: 'up-1', model: 'upstream-model' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Thinking' },
  { type: 'reasoning-end', id: 'r', signature: 'sig-text' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Grüße ' },
  { type: 'text-delta', id: 't', delta: 'aus Oslo' },
  { type: 'text-end', id: 't' },
  { type: 'reasoning-start', id: 's' },
  { type: 'reasoning-end', id: 's', signature: 'sig-call' },
  { type: 'tool-call-start', id: 'c', callId: 'call_1', toolName: 'get_weather' },
  { type: 'tool-call-delta', id: 'c', argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', id: 'c', argumentsDelta: '"Oslo"}' },
  { type: 'tool-call-end', id: 'c' },
  { type: 'response-end', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
];

function encode(events: readonly StreamEvent[], options: { alt?: string; includeThoughts?: boolean } = { alt: 'sse' }) {
  const encoder = createGeminiStreamEncoder(testEncodeContext({ providerOptions: { 'google-gemini': { ...options } } }));
  const messages: SSEMessage[] = [...events.flatMap(event => encoder.push(event)), ...encoder.end()];
  const format = encoder.framing?.format ?? formatSSEFrame;
  return { messages, text: messages.map(format).join(''), framing: encoder.framing };
}

const partsOf = (messages: readonly SSEMessage[]) =>
  messages.map(message => (JSON.parse(message.data) as { candidates: { content: { parts: unknown[] } }[] }).candidates[0]!.content.parts);

describe('createGeminiStreamEncoder', () => {
  it('sends a chunk per delta and per whole call, the signature on the part after it, finishReason and usage last', () => {
    const { messages } = encode(EVENTS);
    expect(partsOf(messages)).toEqual([
      [{ text: 'Grüße ' }],
      [{ text: 'aus Oslo' }],
      [{ functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-call' }],
      [],
    ]);
    expect(JSON.parse(messages.at(-1)!.data)).toMatchObject({
      candidates: [{ finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 2, totalTokenCount: 17 },
      modelVersion: 'client-model',
    });
  });

  it('sends thought parts, and the signature that proves them, to a client that asked for thoughts', () => {
    expect(partsOf(encode(EVENTS, { alt: 'sse', includeThoughts: true }).messages).slice(0, 3)).toEqual([
      [{ text: 'Thinking', thought: true }],
      [{ text: '', thought: true, thoughtSignature: 'sig-text' }],
      [{ text: 'Grüße ' }],
    ]);
  });

  it('decodes back to the same text, call and signature through the Gemini decoder, whatever the byte splits', () => {
    const { text } = encode(EVENTS);
    const bytes = new TextEncoder().encode(text);
    const whole = decodeMessages(decodeSSEChunks([bytes]));
    for (let offset = 1; offset < bytes.length; offset += 3) {
      expect(decodeMessages(decodeSSEChunks([bytes.slice(0, offset), bytes.slice(offset)]))).toEqual(whole);
    }
    expect(whole.filter(event => event.type === 'text-delta').map(event => event.delta).join('')).toBe('Grüße aus Oslo');
    expect(whole).toContainEqual(expect.objectContaining({ type: 'reasoning-end', signature: 'sig-call' }));
    expect(whole).toContainEqual(expect.objectContaining({ type: 'tool-call-end', arguments: '{"city":"Oslo"}' }));
  });

  it('writes one JSON array as it grows without alt=sse, an error included', () => {
    const { text, framing } = encode(EVENTS, {});
    expect(framing?.contentType).toBe('application/json; charset=UTF-8');
    expect(text.startsWith('[{')).toBe(true);
    expect(text).toContain('},\r\n{');
    expect((JSON.parse(text) as unknown[]).length).toBe(4);
    const failed = encode([EVENTS[0]!, EVENTS[5]!, { type: 'error', error: new GatewayError({ code: 'UPSTREAM_OVERLOADED', message: 'Busy.' }) }, EVENTS[6]!], {});
    const parsed = JSON.parse(failed.text) as Record<string, unknown>[];
    expect(parsed.at(-1)).toEqual({
      error: {
        code: 503,
        message: 'Busy.',
        status: 'UNAVAILABLE',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'UPSTREAM_OVERLOADED', domain: 'signalbox', metadata: { service_code: 'UPSTREAM_OVERLOADED' } }],
      },
    });
    expect(encode([], {}).text).toMatch(/^\[\{"error":\{"code":502,.*\}\]$/);
  });

  it('ends a stream that stopped without its terminal event with an error chunk, never a finish', () => {
    const { messages } = encode(EVENTS.slice(0, 7));
    expect(JSON.parse(messages.at(-1)!.data)).toMatchObject({ error: { status: 'INTERNAL', message: 'The upstream stream ended before its terminal event.' } });
    expect(messages.some(message => message.data.includes('finishReason'))).toBe(false);
  });
});
