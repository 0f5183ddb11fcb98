import { GatewayError, type SSEMessage, type StreamEvent, type Usage } from '@signalbox/core';
import { testEncodeContext } from '@signalbox/core/testing';
import { formatSSEFrame } from '@signalbox/sse';
import OpenAI from 'openai';
import { decodeSSEChunks, readFixture } from '@signalbox/sse/testing';
import { createOpenAIResponsesStreamDecoder } from './decode-openai-responses-stream';
import { createOpenAIResponsesStreamEncoder } from './encode-openai-responses-stream';

const context = testEncodeContext({
  model: 'route-gpt',
  system: [{ type: 'text', text: 'Be terse.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }],
  tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
});
const usage: Usage = {
  inputTokens: 12,
  outputTokens: 7,
  cacheReadTokens: 2,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: undefined,
  reasoningTokens: 3,
};

const start: StreamEvent = { type: 'response-start', id: 'upstream-1', model: 'upstream-model' };
const stop = (
  unified: 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' = 'stop',
): StreamEvent => ({
  type: 'response-end',
  finishReason: { unified, raw: undefined },
  usage,
});
const text = (id: string, ...deltas: string[]): StreamEvent[] => [
  { type: 'text-start', id },
  ...deltas.map(delta => ({ type: 'text-delta' as const, id, delta })),
  { type: 'text-end', id },
];

function encode(events: readonly StreamEvent[], options: { end?: boolean } = {}): SSEMessage[] {
  const encoder = createOpenAIResponsesStreamEncoder(context);
  const messages = events.flatMap(event => encoder.push(event));
  if (options.end !== false) messages.push(...encoder.end());
  return messages;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire payloads are read loosely in assertions
type Payload = Record<string, any>;

function payloads(messages: readonly SSEMessage[]): Payload[] {
  return messages.map(message => JSON.parse(message.data));
}

/** Feeds the SSE text to the official SDK's `responses.stream()` helper, which validates the grammar. */
async function finalResponseFromSDK(messages: readonly SSEMessage[]) {
  const body = messages.map(formatSSEFrame).join('');
  const client = new OpenAI({
    apiKey: 'test',
    baseURL: 'http://gateway.test/v1',
    maxRetries: 0,
    fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
  });
  return client.responses.stream({ model: 'route-gpt', input: 'Weather?' }).finalResponse();
}

/**
 * Grammar facts every Responses stream must satisfy, whatever the scenario: `event:` names the
 * data's `type`, and `sequence_number`s count up from 0 without gaps.
 */
function expectWellFormed(messages: readonly SSEMessage[]): void {
  const data = payloads(messages);
  data.forEach((payload, index) => {
    expect(messages[index]!.event).toBe(payload.type);
    expect(payload.sequence_number).toBe(index);
  });
  expect(data.slice(0, 2).map(payload => payload.type)).toEqual(['response.created', 'response.in_progress']);
  const lifecycle = data.filter(payload => payload.response !== undefined);
  expect(new Set(lifecycle.map(payload => payload.response.id)).size).toBe(1);
  expect(lifecycle[0]!.response.id).toMatch(/^resp_/);
  const terminals = data.filter(payload =>
    ['response.completed', 'response.incomplete', 'response.failed'].includes(payload.type),
  );
  expect(terminals).toHaveLength(1);
  expect(data.at(-1)).toBe(terminals[0]);
  // output_index appends contiguously from 0; content_index per item likewise; item ids are unique.
  const added = data.filter(payload => payload.type === 'response.output_item.added');
  expect(added.map(payload => payload.output_index)).toEqual(added.map((_payload, index) => index));
  expect(new Set(added.map(payload => payload.item.id)).size).toBe(added.length);
  for (const item of added) {
    const parts = data.filter(
      payload => payload.type === 'response.content_part.added' && payload.output_index === item.output_index,
    );
    expect(parts.map(payload => payload.content_index)).toEqual(parts.map((_payload, index) => index));
    for (const scoped of data.filter(
      payload => payload.output_index === item.output_index && payload.item_id !== undefined,
    )) {
      expect(scoped.item_id).toBe(item.item.id);
    }
  }
  // Every added item is done before the terminal event (unless the stream failed).
  if (terminals[0]!.type !== 'response.failed') {
    const done = data
      .filter(payload => payload.type === 'response.output_item.done')
      .map(payload => payload.output_index);
    expect([...done].sort((left, right) => left - right)).toEqual(added.map(payload => payload.output_index));
  }
}

describe('createOpenAIResponsesStreamEncoder', () => {
  it.each([
    ['stop', 'response.completed'],
    ['length', 'response.incomplete'],
  ] as const)('gives the %s terminal frame the object its data is the serialisation of, and no other frame one', (unified, type) => {
    const messages = encode([start, ...text('t1', 'Hi'), stop(unified)]);
    const terminal = messages.at(-1)!;
    expect(terminal.event).toBe(type);
    expect(terminal.parsed).toEqual(JSON.parse(terminal.data));
    expect(JSON.stringify(terminal.parsed)).toBe(terminal.data);
    expect(messages.slice(0, -1).filter(message => message.parsed !== undefined)).toEqual([]);
  });

  it('streams text as one message item and the SDK accumulates it', async () => {
    const messages = encode([start, ...text('t0', 'Hello', ' world'), stop()]);
    expectWellFormed(messages);
    expect(payloads(messages).map(payload => payload.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const data = payloads(messages);
    expect(data[0]!.response).toMatchObject({
      status: 'in_progress',
      output: [],
      usage: null,
      model: 'route-gpt',
      instructions: 'Be terse.',
    });
    expect(data[4]).toMatchObject({ delta: 'Hello', logprobs: [], output_index: 0, content_index: 0 });
    expect(data[6]).toMatchObject({ text: 'Hello world' });
    const completed = data.at(-1)!.response;
    expect(completed).toMatchObject({
      status: 'completed',
      completed_at: expect.any(Number),
      usage: {
        input_tokens: 12,
        output_tokens: 7,
        total_tokens: 19,
        input_tokens_details: { cached_tokens: 2, cache_write_tokens: 0 },
      },
    });
    expect(completed.output).toEqual([data[8]!.item]);
    const final = await finalResponseFromSDK(messages);
    expect(final.output_text).toBe('Hello world');
    expect(final.status).toBe('completed');
  });

  it('lets consecutive text blocks share one message item', async () => {
    const messages = encode([start, ...text('a', 'One. '), ...text('b', 'Two.'), stop()]);
    expectWellFormed(messages);
    const added = payloads(messages).filter(payload => payload.type === 'response.output_item.added');
    expect(added).toHaveLength(1);
    const final = await finalResponseFromSDK(messages);
    expect(final.output).toHaveLength(1);
    expect(final.output_text).toBe('One. Two.');
  });

  it('streams text then parallel tool calls, including a call whose arguments only came at the end', async () => {
    const messages = encode([
      start,
      ...text('t', 'Checking.'),
      { type: 'tool-call-start', id: 'a', callId: 'call_a', toolName: 'get_weather' },
      { type: 'tool-call-start', id: 'b', callId: 'call_b', toolName: 'get_weather' },
      { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', id: 'b', argumentsDelta: '{"city":"Bergen"}' },
      { type: 'tool-call-delta', id: 'a', argumentsDelta: '"Oslo"}' },
      { type: 'tool-call-end', id: 'b' },
      { type: 'tool-call-end', id: 'a' },
      { type: 'tool-call-start', id: 'c', callId: 'call_c', toolName: 'get_weather' },
      { type: 'tool-call-end', id: 'c', arguments: '{"city":"Tromsø"}' },
      stop('tool-calls'),
    ]);
    expectWellFormed(messages);
    const data = payloads(messages);
    const lateArguments = data.filter(
      payload => payload.item_id === data.find(p => p.item?.call_id === 'call_c')!.item.id,
    );
    expect(lateArguments.map(payload => [payload.type, payload.delta ?? payload.arguments])).toEqual([
      ['response.function_call_arguments.delta', '{"city":"Tromsø"}'],
      ['response.function_call_arguments.done', '{"city":"Tromsø"}'],
    ]);
    const final = await finalResponseFromSDK(messages);
    expect(final.output.map(item => item.type)).toEqual([
      'message',
      'function_call',
      'function_call',
      'function_call',
    ]);
    expect(
      final.output
        .slice(1)
        .map(
          item => item.type === 'function_call' && [item.call_id, item.arguments, item.id?.startsWith('fc_')],
        ),
    ).toEqual([
      ['call_a', '{"city":"Oslo"}', true],
      ['call_b', '{"city":"Bergen"}', true],
      ['call_c', '{"city":"Tromsø"}', true],
    ]);
    expect(final.output_text).toBe('Checking.');
  });

  it('sends "{}" for a call without arguments', () => {
    const data = payloads(
      encode([
        start,
        { type: 'tool-call-start', id: 'a', callId: 'call_a', toolName: 'now' },
        { type: 'tool-call-end', id: 'a' },
        stop('tool-calls'),
      ]),
    );
    expect(data.find(payload => payload.type === 'response.function_call_arguments.done')).toMatchObject({
      arguments: '{}',
    });
  });

  it('streams reasoning as a reasoning item with a summary part and the encrypted content', async () => {
    const messages = encode([
      start,
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Think ' },
      { type: 'reasoning-delta', id: 'r', delta: 'hard.' },
      { type: 'reasoning-end', id: 'r', encryptedContent: 'opaque-blob' },
      ...text('t', 'Answer.'),
      stop(),
    ]);
    expectWellFormed(messages);
    expect(
      payloads(messages)
        .map(payload => payload.type)
        .slice(2, 9),
    ).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
    ]);
    const final = await finalResponseFromSDK(messages);
    expect(final.output[0]).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Think hard.' }],
      encrypted_content: 'opaque-blob',
    });
    expect(final.output_text).toBe('Answer.');
  });

  it('ends a truncated answer with response.incomplete and an incomplete message item', async () => {
    const messages = encode([
      start,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Once upon' },
      stop('length'),
    ]);
    expectWellFormed(messages);
    const terminal = payloads(messages).at(-1)!;
    expect(terminal.type).toBe('response.incomplete');
    expect(terminal.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      completed_at: null,
    });
    expect(terminal.response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    const final = await finalResponseFromSDK(messages);
    expect(final.status).toBe('incomplete');
    expect(final.output_text).toBe('Once upon');
  });

  it('maps content-filter to response.incomplete with reason content_filter', () => {
    const terminal = payloads(
      encode([
        start,
        { type: 'refusal-start', id: 'r' },
        { type: 'refusal-delta', id: 'r', delta: 'No.' },
        { type: 'refusal-end', id: 'r' },
        stop('content-filter'),
      ]),
    ).at(-1)!;
    expect(terminal.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
      output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] }],
    });
  });

  it('turns an IR error mid-stream into response.failed with the partial output', async () => {
    const error = new GatewayError({ code: 'UPSTREAM_RATE_LIMITED', message: 'Upstream error: slow down' });
    const messages = encode([
      start,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hal' },
      { type: 'error', error },
      ...text('late', 'ignored'),
    ]);
    expectWellFormed(messages);
    const terminal = payloads(messages).at(-1)!;
    expect(terminal.type).toBe('response.failed');
    expect(terminal.response).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'Upstream error: slow down' },
      output: [{ type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: 'Hal' }] }],
    });
    const final = await finalResponseFromSDK(messages);
    expect(final.status).toBe('failed');
  });

  it('reports other gateway errors as server_error', () => {
    const error = new GatewayError({ code: 'UPSTREAM_FAILED', message: 'Upstream error: boom' });
    const terminal = payloads(encode([start, { type: 'error', error }])).at(-1)!;
    expect(terminal.response.error).toMatchObject({ code: 'server_error', type: 'server_error' });
  });

  it('opens the response before an error that arrives first', async () => {
    const error = new GatewayError({ code: 'UPSTREAM_OVERLOADED', message: 'Upstream 529 error' });
    const messages = encode([{ type: 'error', error }]);
    expectWellFormed(messages);
    expect(payloads(messages).map(payload => payload.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.failed',
    ]);
    await expect(finalResponseFromSDK(messages)).resolves.toMatchObject({ status: 'failed' });
  });

  it('fails the response when end() comes without a terminal event, closing nothing further', async () => {
    const messages = encode([
      start,
      { type: 'tool-call-start', id: 'a', callId: 'call_a', toolName: 'f' },
      { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"x"' },
    ]);
    expectWellFormed(messages);
    const terminal = payloads(messages).at(-1)!;
    expect(terminal.response).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'The upstream stream ended before its terminal event.' },
      output: [{ type: 'function_call', call_id: 'call_a', arguments: '{"x"', status: 'incomplete' }],
    });
    await expect(finalResponseFromSDK(messages)).resolves.toMatchObject({ status: 'failed' });
  });

  it('emits nothing after the terminal event', () => {
    const encoder = createOpenAIResponsesStreamEncoder(context);
    encoder.push(start);
    encoder.push(stop());
    expect(encoder.push({ type: 'text-start', id: 'x' })).toEqual([]);
    expect(encoder.end()).toEqual([]);
  });

  it('echoes the request in every lifecycle response object', () => {
    const data = payloads(encode([start, stop()]));
    for (const payload of [data[0]!, data[1]!, data.at(-1)!]) {
      expect(payload.response).toMatchObject({
        object: 'response',
        created_at: 1763769600,
        model: 'route-gpt',
        instructions: 'Be terse.',
        tools: [{ type: 'function', name: 'get_weather', strict: false }],
        tool_choice: 'auto',
        store: true,
        background: false,
        truncation: 'disabled',
      });
    }
  });
});

/** Ids are minted per side; compare the structure with ids replaced by first-seen order. */
function normalize(events: readonly StreamEvent[]): unknown[] {
  const ids = new Map<string, string>();
  const rename = (id: string) => ids.get(id) ?? ids.set(id, `block-${ids.size}`).get(id)!;
  return events.map(event => {
    if (event.type === 'response-start') return { type: event.type };
    if (event.type === 'response-end')
      return { type: event.type, unified: event.finishReason.unified, usage: event.usage };
    if (event.type === 'error') return { type: event.type, message: event.error.message };
    return { ...event, id: rename(event.id) };
  });
}

describe('decode(encode(events)) round trip', () => {
  function roundTrip(events: readonly StreamEvent[]): StreamEvent[] {
    const decoder = createOpenAIResponsesStreamDecoder();
    const decoded = encode(events).flatMap(message => decoder.push(message));
    return [...decoded, ...decoder.end()];
  }

  it.each<[string, StreamEvent[]]>([
    ['text', [start, ...text('t', 'Hello', ' world'), stop()]],
    ['two text blocks', [start, ...text('a', 'One.'), ...text('b', 'Two.'), stop()]],
    [
      'reasoning, text and tool calls',
      [
        start,
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Hmm.' },
        { type: 'reasoning-end', id: 'r', encryptedContent: 'blob' },
        ...text('t', 'Calling.'),
        { type: 'tool-call-start', id: 'a', callId: 'call_a', toolName: 'f' },
        { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"x":1}' },
        { type: 'tool-call-end', id: 'a', arguments: '{"x":1}' },
        stop('tool-calls'),
      ],
    ],
    [
      'refusal',
      [
        start,
        { type: 'refusal-start', id: 'r' },
        { type: 'refusal-delta', id: 'r', delta: 'No.' },
        { type: 'refusal-end', id: 'r' },
        stop(),
      ],
    ],
    ['truncation', [start, ...text('t', 'Once'), stop('length')]],
  ])('%s', (_name, events) => {
    expect(normalize(roundTrip(events))).toEqual(normalize(events));
  });

  it('an error becomes an upstream error carrying the message', () => {
    const error = new GatewayError({ code: 'UPSTREAM_FAILED', message: 'Upstream error: boom' });
    const decoded = roundTrip([start, ...text('t', 'Hi'), { type: 'error', error }]);
    expect(decoded.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'UPSTREAM_FAILED', upstream: { code: 'server_error', message: 'Upstream error: boom' } },
    });
  });
});

describe('re-encoded upstream fixtures', () => {
  // Wire-shaped synthetic fixtures (see __fixtures__/README.md): upstream SSE → IR → client SSE → OpenAI SDK.
  it.each([
    ['text-basic.1.stream.sse', 'completed', 'Héllo wörld 👋', 1],
    ['function-call-done-only.1.stream.sse', 'completed', '', 1],
    ['reasoning-parallel-calls.1.stream.sse', 'completed', '', 3],
    ['incomplete-length.1.stream.sse', 'incomplete', 'Once upon', 1],
    ['text-cut.1.stream.sse', 'failed', 'Partial ans', 1],
    ['error-event.1.stream.sse', 'failed', '', 0],
  ])('%s reaches the SDK as a %s response', async (name, status, outputText, items) => {
    const decoder = createOpenAIResponsesStreamDecoder();
    const upstream = decodeSSEChunks([readFixture(`${__dirname}/../__fixtures__`, name)]);
    const events = [...upstream.flatMap(message => decoder.push(message)), ...decoder.end()];
    const messages = encode(events);
    expectWellFormed(messages);
    const final = await finalResponseFromSDK(messages);
    expect(final.status).toBe(status);
    expect(final.output_text).toBe(outputText);
    expect(final.output).toHaveLength(items);
  });
});
