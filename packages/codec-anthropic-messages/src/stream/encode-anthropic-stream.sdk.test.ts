import Anthropic from '@anthropic-ai/sdk';
import AnthropicV1 from 'anthropic-sdk-v1';
import type { SSEMessage, StreamEvent } from '@signalbox/core';
import { formatSSEFrame } from '@signalbox/sse';
import { decodeSSEChunks, readFixture } from '@signalbox/sse/testing';
import { encodeEvents, fullUsage, overloaded } from '../testing/stream-test-helpers';
import { createAnthropicStreamDecoder } from './decode-anthropic-stream';

/** The SSE text a client would receive, framed by the production frame encoder. */
function toSSEText(messages: readonly SSEMessage[]): string {
  return messages.map(formatSSEFrame).join('');
}

type SDKClient = {
  messages: { stream(body: Anthropic.MessageStreamParams): { finalMessage(): Promise<Anthropic.Message> } };
};
type SDKConstructor = new (options: {
  apiKey: string;
  baseURL: string;
  fetch: typeof fetch;
  maxRetries: number;
}) => SDKClient;

/** The official SDK's stream accumulator, fed our bytes through a fake fetch (no network). */
async function accumulate(SDK: SDKConstructor, sseText: string): Promise<Anthropic.Message> {
  const client = new SDK({
    apiKey: 'test',
    baseURL: 'http://gateway.test',
    maxRetries: 0,
    fetch: async () => new Response(sseText, { headers: { 'content-type': 'text/event-stream' } }),
  });
  return client.messages
    .stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
    .finalMessage();
}

const SDKS: Array<[string, SDKConstructor]> = [
  ['@anthropic-ai/sdk 0.137', Anthropic as unknown as SDKConstructor],
  ['@anthropic-ai/sdk 1.12', AnthropicV1 as unknown as SDKConstructor],
];

const start: StreamEvent = {
  type: 'response-start',
  id: 'up',
  model: 'upstream',
  usage: fullUsage({ outputTokens: 1 }),
};

describe.each(SDKS)('encoder output accumulated by %s', (_name, SDK) => {
  it('accumulates text, stop reason and final usage with cache counts', async () => {
    const message = await accumulate(
      SDK,
      toSSEText(
        encodeEvents([
          start,
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Hello' },
          { type: 'text-delta', id: 't', delta: ' world' },
          { type: 'text-end', id: 't' },
          {
            type: 'response-end',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: fullUsage({ outputTokens: 9 }),
          },
        ]),
      ),
    );
    expect(message.model).toBe('client-model');
    expect(message.content).toEqual([{ type: 'text', text: 'Hello world' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({
      input_tokens: 12,
      cache_read_input_tokens: 1200,
      cache_creation_input_tokens: 100,
      output_tokens: 9,
    });
  });

  it('accumulates the cache writes by lifetime, which message_start carries', async () => {
    const usage = fullUsage({ cacheWriteTokens: 100, cacheWrite1hTokens: 60 });
    const message = await accumulate(
      SDK,
      toSSEText(
        encodeEvents([
          { ...start, usage: { ...usage, outputTokens: 1 } },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Hi' },
          { type: 'text-end', id: 't' },
          { type: 'response-end', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        ]),
      ),
    );
    expect(message.usage).toMatchObject({
      input_tokens: 12,
      cache_creation_input_tokens: 100,
      cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 60 },
    });
  });

  it('accumulates parallel tool calls, including arguments sent only at the end', async () => {
    const message = await accumulate(
      SDK,
      toSSEText(
        encodeEvents([
          { type: 'response-start', id: 'up', model: 'upstream' },
          { type: 'tool-call-start', id: 'a', callId: 'call_a', toolName: 'get_weather' },
          { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"city":' },
          { type: 'tool-call-start', id: 'b', callId: 'call_b', toolName: 'get_time' },
          { type: 'tool-call-delta', id: 'b', argumentsDelta: '{"zone":"CET"}' },
          { type: 'tool-call-delta', id: 'a', argumentsDelta: '"Oslo"}' },
          { type: 'tool-call-end', id: 'a' },
          { type: 'tool-call-end', id: 'b' },
          { type: 'tool-call-start', id: 'c', callId: 'call_c', toolName: 'get_weather' },
          { type: 'tool-call-end', id: 'c', arguments: '{"city":"Malmö"}' },
          { type: 'response-end', finishReason: { unified: 'stop', raw: 'stop' }, usage: fullUsage() },
        ]),
      ),
    );
    expect(
      message.content.map(block =>
        block.type === 'tool_use' ? [block.type, block.id, block.name, block.input] : [block.type],
      ),
    ).toEqual([
      ['tool_use', 'call_a', 'get_weather', { city: 'Oslo' }],
      ['tool_use', 'call_b', 'get_time', { zone: 'CET' }],
      ['tool_use', 'call_c', 'get_weather', { city: 'Malmö' }],
    ]);
    expect(message.stop_reason).toBe('tool_use');
    // Usage known only at the end still reaches the client, through message_delta.
    expect(message.usage).toMatchObject({
      input_tokens: 12,
      cache_read_input_tokens: 1200,
      cache_creation_input_tokens: 100,
    });
  });

  it('accumulates a signed thinking block byte-for-byte', async () => {
    const message = await accumulate(
      SDK,
      toSSEText(
        encodeEvents([
          start,
          { type: 'reasoning-start', id: 'r' },
          { type: 'reasoning-delta', id: 'r', delta: '17 × 23 = 391.' },
          { type: 'reasoning-end', id: 'r', signature: 'c2lnbmVk' },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: '391' },
          { type: 'text-end', id: 't' },
          { type: 'response-end', finishReason: { unified: 'length', raw: 'length' }, usage: fullUsage() },
        ]),
      ),
    );
    expect(message.content).toEqual([
      { type: 'thinking', thinking: '17 × 23 = 391.', signature: 'c2lnbmVk' },
      { type: 'text', text: '391' },
    ]);
    expect(message.stop_reason).toBe('max_tokens');
  });

  it('throws on a mid-stream error, with the overloaded error type', async () => {
    const sse = toSSEText(
      encodeEvents([
        start,
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Once' },
        { type: 'error', error: overloaded() },
      ]),
    );
    await expect(accumulate(SDK, sse)).rejects.toMatchObject({
      error: { type: 'error', error: { type: 'overloaded_error' } },
    });
  });

  it('throws when the IR stream ended without a terminal event', async () => {
    const sse = toSSEText(
      encodeEvents([start, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Once' }]),
    );
    await expect(accumulate(SDK, sse)).rejects.toMatchObject({ error: { error: { type: 'api_error' } } });
  });

  it.each(['text-basic.1.stream.sse', 'tool-use-parallel.1.stream.sse', 'thinking-signature.1.stream.sse'])(
    're-encoding the upstream fixture %s accumulates to the same message',
    async name => {
      const bytes = readFixture(__dirname, `../__fixtures__/${name}`); // wire-shaped synthetic
      const decoder = createAnthropicStreamDecoder();
      const events = [
        ...decodeSSEChunks([bytes]).flatMap(message => decoder.push(message)),
        ...decoder.end(),
      ];
      const original = await accumulate(SDK, new TextDecoder().decode(bytes));
      const reencoded = await accumulate(SDK, toSSEText(encodeEvents(events)));
      expect(reencoded.content).toEqual(original.content);
      expect(reencoded.stop_reason).toBe(original.stop_reason);
      expect(reencoded.stop_sequence).toBe(original.stop_sequence);
      for (const field of [
        'input_tokens',
        'output_tokens',
        'cache_read_input_tokens',
        'cache_creation_input_tokens',
      ] as const) {
        expect(reencoded.usage[field]).toBe(original.usage[field]);
      }
    },
  );
});
