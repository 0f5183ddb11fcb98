import { GatewayError, type SSEMessage, type StreamEvent } from '@signalbox/core';
import { formatSSEFrame } from '@signalbox/sse';
import {
  encodeEvents,
  fullUsage,
  overloaded,
  payloads,
  testContext,
  withStableIds,
} from '../testing/stream-test-helpers';
import { createAnthropicStreamEncoder } from './encode-anthropic-stream';

/** The SSE text a client would receive, framed by the production frame encoder. */
function toSSEText(messages: readonly SSEMessage[]): string {
  return messages.map(formatSSEFrame).join('');
}

const start: StreamEvent = {
  type: 'response-start',
  id: 'upstream-1',
  model: 'upstream-model',
  usage: fullUsage({ outputTokens: 1 }),
};
const stop = (unified: 'stop' | 'length' | 'tool-calls' = 'stop', raw = 'x'): StreamEvent => ({
  type: 'response-end',
  finishReason: { unified, raw },
  usage: fullUsage(),
});

const textEvents: StreamEvent[] = [
  start,
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello' },
  { type: 'text-delta', id: 't', delta: '' },
  { type: 'text-delta', id: 't', delta: ' world' },
  { type: 'text-end', id: 't' },
  stop(),
];

/** Two parallel calls whose deltas interleave (as some Chat upstreams send them) and a call with end-only arguments. */
const toolEvents: StreamEvent[] = [
  start,
  { type: 'text-start', id: 'text' },
  { type: 'text-delta', id: 'text', delta: 'Checking.' },
  { type: 'text-end', id: 'text' },
  { type: 'tool-call-start', id: 'a', callId: 'call_a', toolName: 'get_weather' },
  { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"city":' },
  { type: 'tool-call-start', id: 'b', callId: 'call_b', toolName: 'get_time' },
  { type: 'tool-call-delta', id: 'b', argumentsDelta: '{"zone":' },
  { type: 'tool-call-delta', id: 'a', argumentsDelta: '"Oslo"}' },
  { type: 'tool-call-delta', id: 'b', argumentsDelta: '"CET"}' },
  { type: 'tool-call-end', id: 'a' },
  { type: 'tool-call-end', id: 'b' },
  { type: 'tool-call-start', id: 'c', callId: 'call_c', toolName: 'get_weather' },
  { type: 'tool-call-end', id: 'c', arguments: '{"city":"Malmö"}' },
  stop('stop', 'stop'),
];

describe('createAnthropicStreamEncoder', () => {
  it('encodes a text answer in the full Messages grammar', () => {
    const messages = encodeEvents(textEvents);
    expect(withStableIds(toSSEText(messages))).toMatchSnapshot();
    expect(messages.map(message => message.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('names every event after its data.type (SDKs skip frames without an event line)', () => {
    for (const events of [textEvents, toolEvents]) {
      for (const message of encodeEvents(events)) expect(message.event).toBe(JSON.parse(message.data).type);
    }
  });

  it('uses the client model and the start usage in message_start, final usage in message_delta', () => {
    const [messageStart, , , , , , messageDelta] = payloads(encodeEvents(textEvents));
    expect(messageStart!.message).toMatchObject({
      model: 'client-model',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 12,
        cache_read_input_tokens: 1200,
        cache_creation_input_tokens: 100,
        output_tokens: 1,
      },
    });
    expect(messageStart!.message.id).toMatch(/^msg_[A-Za-z0-9]{24}$/);
    expect(messageDelta).toMatchObject({
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: {
        input_tokens: 12,
        cache_read_input_tokens: 1200,
        cache_creation_input_tokens: 100,
        output_tokens: 9,
      },
    });
  });

  it('emits zero start usage when the upstream reports usage only at the end', () => {
    const messages = encodeEvents([{ type: 'response-start', id: 'r', model: 'm' }, ...textEvents.slice(1)]);
    const [messageStart] = payloads(messages);
    expect(messageStart!.message.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 0,
    });
    expect(payloads(messages).at(-2)!.usage).toMatchObject({
      input_tokens: 12,
      cache_read_input_tokens: 1200,
    });
  });

  it('serialises interleaved parallel tool calls into contiguous blocks and sends end-only arguments', () => {
    const messages = encodeEvents(toolEvents);
    expect(withStableIds(toSSEText(messages))).toMatchSnapshot();
    const data = payloads(messages);
    const starts = data.filter(event => event.type === 'content_block_start');
    expect(starts.map(event => [event.index, event.content_block.type, event.content_block.id])).toEqual([
      [0, 'text', undefined],
      [1, 'tool_use', 'call_a'],
      [2, 'tool_use', 'call_b'],
      [3, 'tool_use', 'call_c'],
    ]);
    const argumentsOf = (index: number) =>
      data
        .filter(event => event.type === 'content_block_delta' && event.index === index)
        .map(event => event.delta.partial_json)
        .join('');
    expect(JSON.parse(argumentsOf(1))).toEqual({ city: 'Oslo' });
    expect(JSON.parse(argumentsOf(2))).toEqual({ zone: 'CET' });
    expect(JSON.parse(argumentsOf(3))).toEqual({ city: 'Malmö' });
    // A block is never opened before the previous one stopped.
    let open: number | undefined;
    for (const event of data) {
      if (event.type === 'content_block_start') {
        expect(open).toBeUndefined();
        open = event.index;
      }
      if (event.type === 'content_block_delta') expect(event.index).toBe(open);
      if (event.type === 'content_block_stop') open = undefined;
    }
    // OpenAI reports `stop` for forced calls; any tool_use block means tool_use.
    expect(data.at(-2)!.delta.stop_reason).toBe('tool_use');
  });

  it('lets end arguments replace deltas that had not gone out yet', () => {
    const data = payloads(
      encodeEvents([
        start,
        { type: 'text-start', id: 't' },
        { type: 'tool-call-start', id: 'a', callId: 'call_a', toolName: 'f' },
        { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"partial":' },
        { type: 'tool-call-end', id: 'a', arguments: '{"complete":true}' },
        { type: 'text-end', id: 't' },
        stop('tool-calls'),
      ]),
    );
    const deltas = data.filter(event => event.type === 'content_block_delta').map(event => event.delta);
    expect(deltas).toEqual([{ type: 'input_json_delta', partial_json: '{"complete":true}' }]);
  });

  it('sends signed reasoning as a thinking block with its signature just before the stop', () => {
    const data = payloads(
      encodeEvents([
        start,
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Think ' },
        { type: 'reasoning-delta', id: 'r', delta: 'hard.' },
        { type: 'reasoning-end', id: 'r', signature: 'sig-1' },
        { type: 'reasoning-start', id: 'x', redactedData: 'opaque' },
        { type: 'reasoning-end', id: 'x' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Done.' },
        { type: 'text-end', id: 't' },
        stop(),
      ]),
    );
    expect(data.slice(2, -2)).toEqual([
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Think ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hard.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'opaque' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Done.' } },
      { type: 'content_block_stop', index: 2 },
    ]);
  });

  it('drops unsigned reasoning entirely (an unsigned thinking block breaks replay to Anthropic)', () => {
    const data = payloads(
      encodeEvents([
        start,
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'OpenAI summary' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Answer' },
        { type: 'reasoning-end', id: 'r', encryptedContent: 'openai-blob' },
        { type: 'text-end', id: 't' },
        { type: 'reasoning-start', id: 'unfinished' },
        { type: 'reasoning-delta', id: 'unfinished', delta: 'never ends' },
        stop(),
      ]),
    );
    const text = JSON.stringify(data);
    for (const absent of ['"type":"thinking"', 'thinking_delta', 'OpenAI summary', 'never ends'])
      expect(text).not.toContain(absent);
    const starts = data.filter(event => event.type === 'content_block_start');
    expect(starts).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ]);
  });

  it('keeps a thinking block first when later blocks start before its signature arrives', () => {
    const data = payloads(
      encodeEvents([
        start,
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Plan' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hi' },
        { type: 'reasoning-end', id: 'r', signature: 'sig' },
        { type: 'text-delta', id: 't', delta: '!' },
        { type: 'text-end', id: 't' },
        stop(),
      ]),
    );
    const blocks = data
      .filter(event => event.type.startsWith('content_block'))
      .map(event => [event.type, event.index, event.delta?.type ?? event.content_block?.type]);
    expect(blocks).toEqual([
      ['content_block_start', 0, 'thinking'],
      ['content_block_delta', 0, 'thinking_delta'],
      ['content_block_delta', 0, 'signature_delta'],
      ['content_block_stop', 0, undefined],
      ['content_block_start', 1, 'text'],
      ['content_block_delta', 1, 'text_delta'],
      ['content_block_delta', 1, 'text_delta'],
      ['content_block_stop', 1, undefined],
    ]);
  });

  it('sends a signature that arrives after the answer (Gemini signs its last text) before the next block, or not at all when none follows', () => {
    const shapes = (events: StreamEvent[]) =>
      payloads(encodeEvents([start, ...events, stop()]))
        .filter(event => event.type === 'content_block_start' || event.delta?.type === 'signature_delta')
        .map(event => event.content_block?.type ?? `signature:${event.delta.signature}`);
    const text: StreamEvent[] = [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Snow chains are in the boot.' },
      { type: 'text-end', id: 't' },
    ];
    const lateSignature = (signature: string): StreamEvent[] => [
      { type: 'reasoning-start', id: signature },
      { type: 'reasoning-end', id: signature, signature },
    ];
    // A client reads the answer from the message's last block: the text stays last.
    expect(shapes([...text, ...lateSignature('sig-text')])).toEqual(['text']);
    expect(shapes([...text, ...lateSignature('sig-call'), { type: 'tool-call-start', id: 'c', callId: 'call_1', toolName: 'Read' }, { type: 'tool-call-end', id: 'c', arguments: '{}' }])).toEqual([
      'text',
      'thinking',
      'signature:sig-call',
      'tool_use',
    ]);
    // Late thinking with text could not be sent whole in its place: neither it nor its signature goes.
    expect(shapes([...text, { type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'Hmm' }, { type: 'reasoning-end', id: 'r', signature: 'sig-r' }, { type: 'text-start', id: 'u' }, { type: 'text-end', id: 'u' }])).toEqual(['text', 'text']);
  });

  it('maps truncation to max_tokens and closes blocks left open', () => {
    const data = payloads(
      encodeEvents([
        start,
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Once' },
        stop('length', 'length'),
      ]),
    );
    expect(data.map(event => event.type)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(data.at(-2)!.delta).toMatchObject({ stop_reason: 'max_tokens', stop_sequence: null });
  });

  it('reports a matched stop sequence', () => {
    const data = payloads(
      encodeEvents([
        start,
        {
          type: 'response-end',
          finishReason: { unified: 'stop', raw: 'stop_sequence', stopSequence: 'END' },
          usage: fullUsage(),
        },
      ]),
    );
    expect(data.at(-2)!.delta).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
  });

  it('ends a failed stream with one error event, closing nothing and sending nothing after it', () => {
    const encoder = createAnthropicStreamEncoder(testContext());
    const before = [
      start,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Once' },
    ] satisfies StreamEvent[];
    before.forEach(event => encoder.push(event));
    expect(encoder.push({ type: 'error', error: overloaded() })).toEqual([
      {
        event: 'error',
        data: '{"type":"error","error":{"type":"overloaded_error","message":"Upstream error: Overloaded"}}',
      },
    ]);
    expect(encoder.push({ type: 'text-end', id: 't' })).toEqual([]);
    expect(encoder.push(stop())).toEqual([]);
    expect(encoder.end()).toEqual([]);
  });

  it.each([
    ['UPSTREAM_RATE_LIMITED', 'rate_limit_error'],
    ['RATE_LIMITED', 'rate_limit_error'],
    ['UPSTREAM_FAILED', 'api_error'],
    ['UPSTREAM_TIMEOUT', 'api_error'],
  ] as const)('maps a %s error to %s', (code, type) => {
    const [message] = encodeEvents([{ type: 'error', error: new GatewayError({ code, message: 'failed' }) }]);
    expect(JSON.parse(message!.data)).toEqual({ type: 'error', error: { type, message: 'failed' } });
  });

  it('emits an error when the stream ends without a terminal event', () => {
    const messages = encodeEvents(textEvents.slice(0, 4));
    const last = messages.at(-1)!;
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data)).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'The upstream stream ended before its terminal event.' },
    });
    expect(messages.some(message => message.event === 'message_stop')).toBe(false);
  });

  it('opens the message first when content arrives before response-start', () => {
    const messages = encodeEvents(textEvents.slice(1));
    expect(messages.slice(0, 3).map(message => message.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
    ]);
  });
});
