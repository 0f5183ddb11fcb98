import OpenAI from 'openai';
import {
  GatewayError,
  type EncodeContext,
  type SSEMessage,
  type StreamEvent,
  type Usage,
} from '@signalbox/core';
import { testEncodeContext } from '@signalbox/core/testing';
import { createOpenAIChatStreamDecoder } from './decode-openai-chat-stream';
import { createOpenAIChatStreamEncoder } from './encode-openai-chat-stream';

const USAGE: Usage = {
  inputTokens: 120,
  outputTokens: 30,
  cacheReadTokens: 100,
  cacheWriteTokens: undefined,
  cacheWrite1hTokens: undefined,
  reasoningTokens: 8,
};

function contextFor(includeUsage: boolean | undefined): EncodeContext {
  return testEncodeContext({
    messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
    ...(includeUsage !== undefined && {
      providerOptions: { 'openai-chat': { stream_options: { include_usage: includeUsage } } },
    }),
  });
}

function encode(events: readonly StreamEvent[], includeUsage?: boolean, callEnd = true): SSEMessage[] {
  const encoder = createOpenAIChatStreamEncoder(contextFor(includeUsage));
  const messages = events.flatMap(event => encoder.push(event));
  if (callEnd) messages.push(...encoder.end());
  return messages;
}

function toSSEText(messages: readonly SSEMessage[]): string {
  return messages.map(message => `data: ${message.data}\n\n`).join('');
}

/** Runs the gateway's bytes through the official SDK's stream helper (it validates role, finish_reason, tool-call identity). */
async function finalFromSDK(messages: readonly SSEMessage[]) {
  const client = new OpenAI({
    apiKey: 'test',
    baseURL: 'http://gateway.test/v1',
    maxRetries: 0,
    fetch: async () =>
      new Response(toSSEText(messages), { headers: { 'content-type': 'text/event-stream' } }),
  });
  const stream = client.chat.completions.stream({
    model: 'client-model',
    messages: [{ role: 'user', content: 'x' }],
  });
  return stream.finalChatCompletion();
}

const start: StreamEvent = { type: 'response-start', id: 'upstream-id', model: 'upstream-model' };
const end = (unified: 'stop' | 'length' | 'tool-calls', raw: string = unified): StreamEvent => ({
  type: 'response-end',
  finishReason: { unified, raw },
  usage: USAGE,
});
const text = (id: string, ...deltas: string[]): StreamEvent[] => [
  { type: 'text-start', id },
  ...deltas.map(delta => ({ type: 'text-delta' as const, id, delta })),
  { type: 'text-end', id },
];

describe('createOpenAIChatStreamEncoder', () => {
  it('streams a text answer the SDK accepts, with the usage chunk when the client asked', async () => {
    const messages = encode([start, ...text('text-0', 'Hel', 'lo 👋'), end('stop')], true);
    const chunks = messages.slice(0, -1).map(message => JSON.parse(message.data));
    expect(messages.every(message => message.event === undefined)).toBe(true);
    expect(messages.at(-1)).toEqual({ data: '[DONE]' });
    expect(
      new Set(chunks.map(chunk => `${chunk.id} ${chunk.created} ${chunk.model} ${chunk.object}`)).size,
    ).toBe(1);
    expect(chunks[0]).toEqual({
      id: expect.stringMatching(/^chatcmpl-/),
      object: 'chat.completion.chunk',
      created: 1763769600,
      model: 'client-model',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      usage: null,
    });
    expect(chunks.at(-2).choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 120,
        completion_tokens: 30,
        total_tokens: 150,
        prompt_tokens_details: { cached_tokens: 100 },
        completion_tokens_details: { reasoning_tokens: 8 },
      },
    });
    const completion = await finalFromSDK(messages);
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Hello 👋', refusal: null },
    });
  });

  it('sends neither the usage chunk nor `usage: null` when the client did not ask', () => {
    for (const includeUsage of [undefined, false]) {
      const chunks = encode([start, ...text('text-0', 'Hi'), end('stop')], includeUsage)
        .slice(0, -1)
        .map(message => JSON.parse(message.data));
      expect(chunks.every(chunk => !('usage' in chunk) && chunk.choices.length === 1)).toBe(true);
    }
  });

  it('gives each parallel call its own index and sends end-only arguments as one fragment', async () => {
    const events: StreamEvent[] = [
      start,
      ...text('text-0', 'Checking.'),
      { type: 'tool-call-start', id: 'tool-0', callId: 'call_a', toolName: 'get_weather' },
      { type: 'tool-call-delta', id: 'tool-0', argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', id: 'tool-0', argumentsDelta: '"Oslo"}' },
      { type: 'tool-call-end', id: 'tool-0' },
      { type: 'tool-call-start', id: 'tool-1', callId: 'call_b', toolName: 'get_weather' },
      { type: 'tool-call-end', id: 'tool-1', arguments: '{"city":"Bergen"}' },
      { type: 'tool-call-start', id: 'tool-2', callId: 'call_c', toolName: 'get_time' },
      { type: 'tool-call-end', id: 'tool-2' },
      end('tool-calls', 'tool_use'),
    ];
    const messages = encode(events);
    const toolDeltas = messages
      .slice(0, -1)
      .flatMap(message => JSON.parse(message.data).choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas).toEqual([
      { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 0, function: { arguments: '"Oslo"}' } },
      { index: 1, id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 1, function: { arguments: '{"city":"Bergen"}' } },
      { index: 2, id: 'call_c', type: 'function', function: { name: 'get_time', arguments: '' } },
      { index: 2, function: { arguments: '{}' } },
    ]);
    const completion = await finalFromSDK(messages);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.content).toBe('Checking.');
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bergen"}' } },
      { id: 'call_c', type: 'function', function: { name: 'get_time', arguments: '{}' } },
    ]);
  });

  it('says tool_calls whenever a call went out, even if the upstream said stop', async () => {
    const messages = encode([
      start,
      { type: 'tool-call-start', id: 'tool-0', callId: 'call_a', toolName: 'f' },
      { type: 'tool-call-delta', id: 'tool-0', argumentsDelta: '{}' },
      { type: 'tool-call-end', id: 'tool-0', arguments: '{"ignored":true}' },
      end('stop'),
    ]);
    const completion = await finalFromSDK(messages);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { arguments: '{}' } });
  });

  it('says length, not tool_calls, when the token limit cut a call in its arguments', async () => {
    const messages = encode([
      start,
      { type: 'tool-call-start', id: 'tool-0', callId: 'call_a', toolName: 'get_weather' },
      { type: 'tool-call-delta', id: 'tool-0', argumentsDelta: '{"city":"Os' },
      { type: 'tool-call-end', id: 'tool-0' },
      { type: 'response-end', finishReason: { unified: 'length', raw: 'max_tokens' }, usage: USAGE },
    ]);
    const completion = await finalFromSDK(messages);
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { arguments: '{"city":"Os' },
    });
  });

  it('drops reasoning and streams refusals as `delta.refusal`', async () => {
    const messages = encode([
      start,
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'secret thoughts' },
      { type: 'reasoning-end', id: 'r', signature: 'sig' },
      { type: 'refusal-start', id: 'x' },
      { type: 'refusal-delta', id: 'x', delta: "I can't help with that." },
      { type: 'refusal-end', id: 'x' },
      { type: 'response-end', finishReason: { unified: 'content-filter', raw: 'refusal' }, usage: USAGE },
    ]);
    expect(messages.some(message => message.data.includes('secret thoughts'))).toBe(false);
    const completion = await finalFromSDK(messages);
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'content_filter',
      message: { refusal: "I can't help with that.", content: '' },
    });
  });

  it('reports truncation as finish_reason length', async () => {
    const completion = await finalFromSDK(
      encode([start, ...text('text-0', 'Once upon a'), end('length', 'max_tokens')]),
    );
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'length',
      message: { content: 'Once upon a' },
    });
  });

  it('ends an errored stream with one `{"error": …}` frame and no [DONE], which the SDK throws', async () => {
    const error = new GatewayError({ code: 'UPSTREAM_OVERLOADED', message: 'Upstream error: Overloaded' });
    const messages = encode([start, ...text('text-0', 'Partial'), { type: 'error', error }, end('stop')]);
    expect(messages.at(-1)).toEqual({
      data: JSON.stringify({
        error: {
          message: 'Upstream error: Overloaded',
          type: 'service_unavailable_error',
          param: null,
          code: 'server_is_overloaded',
        },
      }),
    });
    expect(messages.some(message => message.data === '[DONE]')).toBe(false);
    await expect(finalFromSDK(messages)).rejects.toThrow('Upstream error: Overloaded');
  });

  it('sends only the error frame when the error comes before anything else', () => {
    const error = new GatewayError({ code: 'UPSTREAM_FAILED', message: 'boom' });
    const messages = encode([{ type: 'error', error }]);
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0]!.data)).toEqual({
      error: { message: 'boom', type: 'server_error', param: null, code: 'upstream_failed' },
    });
  });

  it('emits a failure when end() comes without a terminal event, and nothing after a terminal', async () => {
    const encoder = createOpenAIChatStreamEncoder(contextFor(true));
    const opened = [start, ...text('text-0', 'Hal')].flatMap(event => encoder.push(event));
    const ended = encoder.end();
    expect(ended).toHaveLength(1);
    expect(JSON.parse(ended[0]!.data).error).toMatchObject({ type: 'server_error', code: 'upstream_failed' });
    expect(encoder.push(end('stop'))).toEqual([]);
    expect(encoder.end()).toEqual([]);
    await expect(finalFromSDK([...opened, ...ended])).rejects.toThrow(
      'The upstream stream ended before its terminal event.',
    );
  });

  it('opens with the role chunk even when the first event is content', async () => {
    const messages = encode([...text('text-0', 'Hi'), end('stop')]);
    expect(JSON.parse(messages[0]!.data).choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect((await finalFromSDK(messages)).choices[0]?.message.content).toBe('Hi');
  });

  it('round-trips through the decoder: decode(encode(events)) ≈ events', () => {
    const events: StreamEvent[] = [
      start,
      ...text('text-0', 'Grüße ', '👋'),
      { type: 'tool-call-start', id: 'tool-0', callId: 'call_a', toolName: 'f' },
      { type: 'tool-call-delta', id: 'tool-0', argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', id: 'tool-0', argumentsDelta: '1}' },
      { type: 'tool-call-end', id: 'tool-0' },
      { type: 'tool-call-start', id: 'tool-1', callId: 'call_b', toolName: 'g' },
      { type: 'tool-call-delta', id: 'tool-1', argumentsDelta: '{}' },
      { type: 'tool-call-end', id: 'tool-1' },
      end('tool-calls', 'tool_calls'),
    ];
    const decoder = createOpenAIChatStreamDecoder();
    const decoded = encode(events, true).flatMap(message => decoder.push(message));
    decoded.push(...decoder.end());
    // The client sees the gateway's id and the client's model ID; everything else survives.
    expect(decoded).toEqual([
      { type: 'response-start', id: expect.stringMatching(/^chatcmpl-/), model: 'client-model' },
      ...events.slice(1, -1),
      {
        type: 'response-end',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: { ...USAGE },
      },
    ]);
  });
});
