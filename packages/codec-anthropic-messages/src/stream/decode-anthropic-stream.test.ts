import type { SSEMessage, StreamEvent } from '@signalbox/core';
import { comparableEvents } from '@signalbox/core/testing';
import { decodeSSEChunks, findSplitsThatChangeMessages, readFixture, splitEvery } from '@signalbox/sse/testing';
import { createAnthropicStreamDecoder } from './decode-anthropic-stream';

// Wire-shaped synthetic fixtures; provenance in __fixtures__/README.md.
const FIXTURES = [
  'text-basic.1.stream.sse',
  'tool-use-parallel.1.stream.sse',
  'thinking-signature.1.stream.sse',
  'error-overloaded.1.stream.sse',
  'cut-before-stop.1.stream.sse',
] as const;

function fixture(name: string): Uint8Array {
  return readFixture(__dirname, `../__fixtures__/${name}`);
}

function decodeMessages(messages: readonly SSEMessage[]): StreamEvent[] {
  const decoder = createAnthropicStreamDecoder();
  return [...messages.flatMap(message => decoder.push(message)), ...decoder.end()];
}

function decodeChunks(chunks: Uint8Array[]): StreamEvent[] {
  return decodeMessages(decodeSSEChunks(chunks));
}

describe('createAnthropicStreamDecoder', () => {
  describe.each(FIXTURES)('%s', name => {
    const bytes = fixture(name);
    const whole = comparableEvents(decodeChunks([bytes]));

    it('maps the stream to IR events', () => {
      expect(whole).toMatchSnapshot();
    });

    it('gives the same events wherever the chunk boundaries fall', () => {
      expect(findSplitsThatChangeMessages(bytes)).toEqual([]);
      for (const size of [1, 2, 3, 7, 64])
        expect(comparableEvents(decodeChunks(splitEvery(bytes, size)))).toEqual(whole);
    });
  });

  it('reports usage in IR semantics: input includes cache reads and writes', () => {
    const events = decodeChunks([fixture('text-basic.1.stream.sse')]);
    expect(events[0]).toMatchObject({
      type: 'response-start',
      id: 'msg_01SyntheticTextBasic',
      model: 'claude-sonnet-5',
    });
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: {
        inputTokens: 1312,
        outputTokens: 9,
        cacheReadTokens: 1200,
        cacheWriteTokens: 100,
        reasoningTokens: undefined,
      },
    });
  });

  it('reads the cache writes by lifetime from message_start, and from message_delta when it sends them', () => {
    const frame = (data: object): SSEMessage => ({ event: (data as { type: string }).type, data: JSON.stringify(data) });
    const counts = { input_tokens: 5, cache_read_input_tokens: 900, cache_creation_input_tokens: 300 };
    const start = frame({
      type: 'message_start',
      message: { id: 'msg_1', model: 'm', usage: { ...counts, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 }, output_tokens: 1 } },
    });
    const delta = (usage: object) => frame({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7, ...usage } });
    const stop = frame({ type: 'message_stop' });
    const usageAtEnd = (messages: SSEMessage[]) => decodeMessages(messages).at(-1);
    const expected = { inputTokens: 1205, cacheReadTokens: 900, cacheWriteTokens: 300, cacheWrite1hTokens: 200, outputTokens: 7 };
    expect(decodeMessages([start])[0]).toMatchObject({ usage: { ...expected, outputTokens: 1 } });
    expect(usageAtEnd([start, delta({}), stop])).toMatchObject({ type: 'response-end', usage: expected });
    const later = { ...counts, cache_creation_input_tokens: 400, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 300 } };
    expect(usageAtEnd([start, delta(later), stop])).toMatchObject({
      usage: { ...expected, inputTokens: 1305, cacheWriteTokens: 400, cacheWrite1hTokens: 300 },
    });
  });

  it('joins tool arguments from partial_json fragments, skipping empty ones', () => {
    const events = decodeChunks([fixture('tool-use-parallel.1.stream.sse')]);
    const deltas = events.filter(event => event.type === 'tool-call-delta');
    expect(deltas.every(event => event.argumentsDelta !== '')).toBe(true);
    const byId = (id: string) =>
      deltas
        .filter(event => event.id === id)
        .map(event => event.argumentsDelta)
        .join('');
    expect(JSON.parse(byId('1'))).toEqual({ city: 'Oslo', unit: 'celsius' });
    expect(JSON.parse(byId('2'))).toEqual({ city: 'Malmö' });
    expect(events.filter(event => event.type === 'tool-call-start')).toEqual([
      { type: 'tool-call-start', id: '1', callId: 'toolu_01SyntheticOslo', toolName: 'get_weather' },
      { type: 'tool-call-start', id: '2', callId: 'toolu_01SyntheticMalmo', toolName: 'get_weather' },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'response-end',
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    });
  });

  it('carries the thinking signature on reasoning-end and redacted data on reasoning-start', () => {
    const events = decodeChunks([fixture('thinking-signature.1.stream.sse')]);
    expect(events).toContainEqual({
      type: 'reasoning-end',
      id: '0',
      signature: 'c3ludGhldGljLXRoaW5raW5nLXNpZ25hdHVyZS0wMQ==',
    });
    expect(events).toContainEqual({
      type: 'reasoning-start',
      id: '1',
      redactedData: 'c3ludGhldGljLXJlZGFjdGVkLXRoaW5raW5n',
    });
    expect(events).toContainEqual({ type: 'reasoning-end', id: '1' });
    expect(events.at(-1)).toMatchObject({
      usage: { inputTokens: 40, outputTokens: 64, reasoningTokens: 41 },
    });
  });

  it('turns a mid-stream error event into an IR error and stops there', () => {
    const events = decodeChunks([fixture('error-overloaded.1.stream.sse')]);
    const last = events.at(-1)!;
    expect(last.type).toBe('error');
    if (last.type !== 'error') return;
    expect(last.error.code).toBe('UPSTREAM_OVERLOADED');
    expect(last.error.upstream).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(events.filter(event => event.type === 'error')).toHaveLength(1);
    expect(events.some(event => event.type === 'response-end')).toBe(false);
  });

  it.each([
    [
      'a body without type',
      '{"error":{"type":"rate_limit_error","message":"Slow down"}}',
      'UPSTREAM_RATE_LIMITED',
      'Slow down',
    ],
    ['a plain-text body', 'upstream exploded', 'UPSTREAM_FAILED', 'upstream exploded'],
  ])('never loses an error event with %s', (_name, data, code, said) => {
    const decoder = createAnthropicStreamDecoder();
    const [event, ...rest] = decoder.push({ event: 'error', data });
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ type: 'error', error: { code } });
    if (event?.type === 'error') expect(event.error.message).toContain(said);
    expect(decoder.end()).toEqual([]);
  });

  it('reports a stream cut before message_stop as an error, never as complete', () => {
    const events = decodeChunks([fixture('cut-before-stop.1.stream.sse')]);
    expect(events.some(event => event.type === 'response-end')).toBe(false);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'error' });
    if (last.type === 'error') expect(last.error.code).toBe('UPSTREAM_FAILED');
  });

  it('maps malformed JSON to one UPSTREAM_FAILED error and ignores everything after it', () => {
    const decoder = createAnthropicStreamDecoder();
    const events = decoder.push({ event: 'content_block_delta', data: '{"type":' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error' });
    if (events[0]!.type === 'error') expect(events[0]!.error.code).toBe('UPSTREAM_FAILED');
    expect(decoder.push({ event: 'message_stop', data: '{"type":"message_stop"}' })).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it.each([
    ['a known event', 'content_block_delta'],
    ['an event name it does not know', 'vendor_notice'],
    ['no event name', undefined],
  ])('fails on data that is not JSON under %s: such a frame is never skipped', (_name, event) => {
    const decoder = createAnthropicStreamDecoder();
    const events = decoder.push({
      ...(event !== undefined && { event }),
      data: '<html><body>502 Bad Gateway</body></html>',
    });
    expect(events).toEqual([
      {
        type: 'error',
        error: expect.objectContaining({
          code: 'UPSTREAM_FAILED',
          message: 'The upstream sent malformed JSON in a stream event.',
        }),
      },
    ]);
    expect(decoder.end()).toEqual([]);
  });

  it('skips unknown events, unknown block types and their deltas (forward compatibility)', () => {
    const events = decodeMessages([
      {
        event: 'message_start',
        data: '{"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":1}}}',
      },
      { event: 'brand_new_event', data: '{"type":"brand_new_event"}' },
      {
        event: 'content_block_start',
        data: '{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}',
      },
      {
        event: 'content_block_delta',
        data: '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
      },
      { event: 'content_block_stop', data: '{"type":"content_block_stop","index":0}' },
      {
        event: 'message_delta',
        data: '{"type":"message_delta","delta":{"stop_reason":"pause_turn","stop_sequence":null},"usage":{"output_tokens":3}}',
      },
      { event: 'message_stop', data: '{"type":"message_stop"}' },
    ]);
    expect(events.map(event => event.type)).toEqual(['response-start', 'response-end']);
    // pause_turn is an unfinished turn, never a clean stop: the IR's `error` finish.
    expect(events[1]).toMatchObject({ finishReason: { unified: 'error', raw: 'pause_turn' } });
  });

  it('reports a tool input given whole in content_block_start on tool-call-end', () => {
    const events = decodeMessages([
      { event: 'message_start', data: '{"type":"message_start","message":{"id":"msg_1","model":"m"}}' },
      {
        event: 'content_block_start',
        data: '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{"a":1}}}',
      },
      { event: 'content_block_stop', data: '{"type":"content_block_stop","index":0}' },
      { event: 'message_stop', data: '{"type":"message_stop"}' },
    ]);
    expect(events.slice(1, 3)).toEqual([
      { type: 'tool-call-start', id: '0', callId: 'toolu_1', toolName: 'f' },
      { type: 'tool-call-end', id: '0', arguments: '{"a":1}' },
    ]);
  });

  it('reports the matched stop sequence', () => {
    const events = decodeMessages([
      { event: 'message_start', data: '{"type":"message_start","message":{"id":"msg_1","model":"m"}}' },
      {
        event: 'message_delta',
        data: '{"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"END"},"usage":{"output_tokens":3}}',
      },
      { event: 'message_stop', data: '{"type":"message_stop"}' },
    ]);
    expect(events[1]).toMatchObject({
      finishReason: { unified: 'stop', raw: 'stop_sequence', stopSequence: 'END' },
    });
  });
});
