import type { SSEMessage, StreamEvent } from '@signalbox/core';
import { comparableEvents, type ComparableEvent } from '@signalbox/core/testing';
import { decodeSSEChunks, findSplitsThatChangeMessages, readFixture, splitEvery } from '@signalbox/sse/testing';
import { createOpenAIResponsesStreamDecoder } from './decode-openai-responses-stream';

// Wire-shaped synthetic fixtures; provenance in __fixtures__/README.md.
const FIXTURES = `${__dirname}/../__fixtures__`;

function decodeMessages(messages: readonly SSEMessage[]): StreamEvent[] {
  const decoder = createOpenAIResponsesStreamDecoder();
  const events: StreamEvent[] = [];
  for (const message of messages) events.push(...decoder.push(message));
  events.push(...decoder.end());
  return events;
}

function decodeFixture(name: string): ComparableEvent[] {
  return comparableEvents(decodeMessages(decodeSSEChunks([readFixture(FIXTURES, name)])));
}

const FIXTURE_NAMES = [
  'text-basic.1.stream.sse',
  'function-call-done-only.1.stream.sse',
  'text-cut.1.stream.sse',
  'error-event.1.stream.sse',
  'error-event-flat.1.stream.sse',
  'reasoning-parallel-calls.1.stream.sse',
  'incomplete-length.1.stream.sse',
  'failed.1.stream.sse',
];

describe('createOpenAIResponsesStreamDecoder on fixtures', () => {
  it.each(FIXTURE_NAMES)('%s decodes to the same IR events wherever the chunks split', name => {
    const bytes = readFixture(FIXTURES, name);
    const whole = decodeFixture(name);
    expect(whole).toMatchSnapshot();
    const expected = JSON.stringify(whole);
    const decode = (chunks: Uint8Array[]) => JSON.stringify(comparableEvents(decodeMessages(decodeSSEChunks(chunks))));
    expect(findSplitsThatChangeMessages(bytes)).toEqual([]);
    expect(decode(splitEvery(bytes, 1))).toBe(expected);
    expect(decode(splitEvery(bytes, 7))).toBe(expected);
  });

  it('reads a text answer with usage', () => {
    expect(decodeFixture('text-basic.1.stream.sse')).toEqual([
      { type: 'response-start', id: 'resp_fixture01', model: 'gpt-6-2026-01-01' },
      { type: 'text-start', id: 'msg_fixture01:0' },
      { type: 'text-delta', id: 'msg_fixture01:0', delta: 'Héllo' },
      { type: 'text-delta', id: 'msg_fixture01:0', delta: ' wörld 👋' },
      { type: 'text-end', id: 'msg_fixture01:0' },
      {
        type: 'response-end',
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: {
          inputTokens: 12,
          outputTokens: 5,
          cacheReadTokens: 4,
          cacheWriteTokens: undefined,
          reasoningTokens: 0,
        },
      },
    ]);
  });

  it('takes function call arguments sent only in the .done event, and ends the call once', () => {
    const events = decodeFixture('function-call-done-only.1.stream.sse');
    expect(events.slice(1, -1)).toEqual([
      { type: 'tool-call-start', id: 'fc_fixture01', callId: 'call_fixture9', toolName: 'get_weather' },
      { type: 'tool-call-end', id: 'fc_fixture01', arguments: '{"city":"Oslo"}' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'response-end', finishReason: { unified: 'tool-calls' } });
  });

  it('reports a stream cut before its terminal event as an error, never as complete', () => {
    const events = decodeFixture('text-cut.1.stream.sse');
    expect(events.at(-1)).toEqual({
      type: 'error',
      code: 'UPSTREAM_FAILED',
      message: 'The upstream stream ended before its terminal event.',
      upstream: undefined,
    });
    expect(events.some(event => (event as StreamEvent).type === 'response-end')).toBe(false);
  });

  it('reads both shapes of the error event', () => {
    expect(decodeFixture('error-event.1.stream.sse').at(-1)).toMatchObject({
      type: 'error',
      code: 'UPSTREAM_FAILED',
      upstream: {
        type: 'insufficient_quota',
        code: 'credit_balance_exhausted',
        message: 'You have no credits remaining.',
      },
    });
    const flat = decodeFixture('error-event-flat.1.stream.sse').at(-1);
    expect(flat).toMatchObject({
      type: 'error',
      code: 'UPSTREAM_RATE_LIMITED',
      upstream: { code: 'rate_limit_exceeded', message: 'Rate limit reached.' },
    });
    expect((flat as { upstream: { type?: string } }).upstream.type).toBeUndefined();
  });

  it('maps reasoning summaries to one reasoning block ending with the encrypted content', () => {
    const events = decodeFixture('reasoning-parallel-calls.1.stream.sse') as StreamEvent[];
    const reasoning = events.filter(event => event.type.startsWith('reasoning'));
    expect(reasoning).toEqual([
      { type: 'reasoning-start', id: 'rs_fixture01' },
      { type: 'reasoning-delta', id: 'rs_fixture01', delta: 'Need ' },
      { type: 'reasoning-delta', id: 'rs_fixture01', delta: 'weather.' },
      { type: 'reasoning-delta', id: 'rs_fixture01', delta: '\n\n' },
      { type: 'reasoning-delta', id: 'rs_fixture01', delta: 'Two cities.' },
      { type: 'reasoning-end', id: 'rs_fixture01', encryptedContent: 'ZW5jcnlwdGVkLWJsb2I=' },
    ]);
    const ends = events.filter(event => event.type === 'tool-call-end');
    expect(ends).toEqual([
      { type: 'tool-call-end', id: 'fc_fixtureA', arguments: '{"city":"Oslo"}' },
      { type: 'tool-call-end', id: 'fc_fixtureB', arguments: '{"city":"Bergen"}' },
    ]);
    expect(events.at(-1)).toMatchObject({
      finishReason: { unified: 'tool-calls' },
      usage: { reasoningTokens: 32 },
    });
  });

  it('maps response.incomplete and response.failed', () => {
    expect(decodeFixture('incomplete-length.1.stream.sse').at(-1)).toMatchObject({
      type: 'response-end',
      finishReason: { unified: 'length', raw: 'max_output_tokens' },
    });
    expect(decodeFixture('failed.1.stream.sse').at(-1)).toMatchObject({
      type: 'error',
      code: 'UPSTREAM_FAILED',
      upstream: { code: 'server_error', message: 'The model failed to generate a response.' },
    });
  });
});

describe('createOpenAIResponsesStreamDecoder edge cases', () => {
  const message = (data: object): SSEMessage => ({ data: JSON.stringify(data) });

  it('turns malformed JSON into one UPSTREAM_FAILED error and then goes quiet', () => {
    const decoder = createOpenAIResponsesStreamDecoder();
    const events = decoder.push({ event: 'response.created', data: '{"type":' });
    expect(comparableEvents(events)).toMatchObject([{ type: 'error', code: 'UPSTREAM_FAILED' }]);
    expect(decoder.push(message({ type: 'response.created', response: { id: 'r', model: 'm' } }))).toEqual(
      [],
    );
    expect(decoder.end()).toEqual([]);
  });

  it('skips unknown event types and produces nothing after the terminal event', () => {
    const decoder = createOpenAIResponsesStreamDecoder();
    decoder.push(message({ type: 'response.created', response: { id: 'r', model: 'm' } }));
    expect(decoder.push(message({ type: 'response.web_search_call.searching', output_index: 0 }))).toEqual(
      [],
    );
    expect(decoder.push(message({ type: 'keepalive', sequence_number: 3 }))).toEqual([]);
    expect(
      decoder.push(message({ type: 'response.completed', response: { status: 'completed' } })),
    ).toHaveLength(1);
    expect(decoder.push(message({ type: 'error', message: 'late' }))).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it('closes blocks the upstream left open before the terminal event, and forwards text sent only in .done', () => {
    const events = decodeMessages([
      message({ type: 'response.created', response: { id: 'r', model: 'm' } }),
      message({
        type: 'response.content_part.added',
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        part: { type: 'refusal', refusal: '' },
      }),
      message({
        type: 'response.refusal.done',
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        refusal: 'No.',
      }),
      message({
        type: 'response.output_text.delta',
        item_id: 'msg_1',
        output_index: 0,
        content_index: 1,
        delta: 'Hi',
      }),
      message({ type: 'response.completed', response: { status: 'completed' } }),
    ]);
    expect(events.slice(1, -1)).toEqual([
      { type: 'refusal-start', id: 'msg_1:0' },
      { type: 'refusal-delta', id: 'msg_1:0', delta: 'No.' },
      { type: 'refusal-end', id: 'msg_1:0' },
      { type: 'text-start', id: 'msg_1:1' },
      { type: 'text-delta', id: 'msg_1:1', delta: 'Hi' },
      { type: 'text-end', id: 'msg_1:1' },
    ]);
  });

  it('takes the finish from the terminal event type when the response omits its status', () => {
    const events = decodeMessages([
      message({ type: 'response.created', response: { id: 'r', model: 'm' } }),
      message({
        type: 'response.incomplete',
        response: { incomplete_details: { reason: 'max_output_tokens' } },
      }),
    ]);
    expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'length' } });
    const completed = decodeMessages([message({ type: 'response.completed', response: {} })]);
    expect(completed).toEqual([
      { type: 'response-start', id: '', model: '' },
      {
        type: 'response-end',
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: expect.any(Object),
      },
    ]);
  });

  it('ends a function call from output_item.done when no arguments.done came', () => {
    const events = decodeMessages([
      message({ type: 'response.created', response: { id: 'r', model: 'm' } }),
      message({
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
      }),
      message({ type: 'response.completed', response: { status: 'completed' } }),
    ]);
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', id: 'fc_1', callId: 'call_1', toolName: 'f' },
      { type: 'tool-call-end', id: 'fc_1', arguments: '{"a":1}' },
      {
        type: 'response-end',
        finishReason: { unified: 'tool-calls', raw: 'completed' },
        usage: expect.any(Object),
      },
    ]);
  });
});
