import type { JSONObject } from '@signalbox/core';
import {
  at,
  chatFinishReasons,
  chatToolCalls,
  cutBefore,
  DIRECTIONS,
  editFrames,
  listAt,
  messagesBlocks,
  ofType,
  readWire,
  responsesFinal,
  translateResponse,
  translateStream,
  type Wire,
} from './translation-helpers';

// Upstream streams are wire-shaped synthetic fixtures (see test/__fixtures__/README.md).
const KNOWN_MESSAGES_EVENTS = [
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
];
const UPSTREAM_ERROR: Record<Wire, { fixture: string; said: RegExp }> = {
  messages: { fixture: 'messages-error.1.stream.sse', said: /Overloaded/ },
  responses: { fixture: 'responses-error-nested.1.stream.sse', said: /no credits remaining/ },
  chat: { fixture: 'chat-error.1.stream.sse', said: /server had an error/ },
};
const CUT_STREAM: Record<Wire, () => string> = {
  messages: () => cutBefore(readWire('messages-text.1.stream.sse'), 'event: message_delta'),
  responses: () => cutBefore(readWire('responses-text.1.stream.sse'), 'event: response.completed'),
  chat: () => cutBefore(readWire('chat-text-usage.1.stream.sse'), '"finish_reason":"stop"'),
};

/** The client's error terminal, whatever its protocol: `event: error`, `response.failed`/`error`, or `{"error":…}`. */
function expectErrorTerminal(client: Wire, data: JSONObject[], said?: RegExp): void {
  const last = data.at(-1);
  const message =
    client === 'responses'
      ? (at(last, 'response', 'error', 'message') ?? at(last, 'message'))
      : at(last, 'error', 'message');
  if (client === 'messages') expect(last?.type).toBe('error');
  if (client === 'responses') expect(['response.failed', 'error']).toContain(last?.type);
  if (client === 'chat')
    expect(at(last, 'error')).toEqual(expect.objectContaining({ message: expect.any(String) }));
  if (said) expect(message).toMatch(said);
}

describe('streams translated between protocols', () => {
  it.each([
    ['messages', 'messages-parallel-tools.1.stream.sse'],
    ['messages', 'messages-thinking-tool.1.stream.sse'],
    ['messages', 'messages-error.1.stream.sse'],
    ['responses', 'responses-reasoning-text.1.stream.sse'],
    ['responses', 'responses-call-done-only.1.stream.sse'],
    ['responses', 'responses-error-flat.1.stream.sse'],
    ['chat', 'chat-reasoning-content.1.stream.sse'],
    ['chat', 'chat-parallel-calls.1.stream.sse'],
    ['chat', 'chat-error.1.stream.sse'],
  ] as const)(
    'every Messages event carries `event:` equal to data.type, known names only (%s upstream, %s)',
    (upstream, fixture) => {
      const { messages, verdict } = translateStream(upstream, 'messages', readWire(fixture));
      for (const message of messages) {
        const type = (JSON.parse(message.data) as JSONObject).type;
        expect(message.event).toBe(type);
        expect(KNOWN_MESSAGES_EVENTS).toContain(type);
      }
      expect(verdict.violations).toEqual([]);
    },
  );

  const doneOnly = readWire('responses-call-done-only.1.stream.sse');
  const itemDoneOnly = editFrames(doneOnly, frame =>
    frame.includes('event: response.function_call_arguments.done') ? undefined : frame,
  );
  it.each([
    ['`.done` event', doneOnly],
    ['final `output_item.done` item', itemDoneOnly],
  ])(
    'tool arguments sent only in the %s reach Messages clients as input_json_delta',
    (_, upstreamText) => {
      const { data, verdict } = translateStream('responses', 'messages', upstreamText);
      const [tool] = messagesBlocks(data).filter(block => block.block.type === 'tool_use');
      expect(tool?.block).toMatchObject({ id: 'call_9', name: 'get_weather', input: {} });
      expect(JSON.parse(tool!.json)).toEqual({ city: 'Oslo' });
      expect(verdict.violations).toEqual([]);
    },
  );

  it.each([
    ['`.done` event', doneOnly],
    ['final `output_item.done` item', itemDoneOnly],
  ])(
    'tool arguments sent only in the %s reach Chat clients as an arguments fragment',
    (_, upstreamText) => {
      const { data, verdict } = translateStream('responses', 'chat', upstreamText);
      expect(chatToolCalls(data)).toEqual([
        { index: 0, id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ]);
      expect(verdict.violations).toEqual([]);
    },
  );

  it('an empty `tool_calls: []` in Chat chunks is not a tool call (Messages client gets text and end_turn)', () => {
    const { data, verdict } = translateStream(
      'chat',
      'messages',
      readWire('chat-empty-tool-calls.1.stream.sse'),
    );
    expect(messagesBlocks(data).map(block => block.block.type)).toEqual(['text']);
    expect(messagesBlocks(data)[0]?.text).toBe('Sunny in Oslo.');
    expect(data.some(event => at(event, 'delta', 'type') === 'input_json_delta')).toBe(false);
    expect(at(ofType(data, 'message_delta')[0], 'delta', 'stop_reason')).toBe('end_turn');
    expect(verdict.violations).toEqual([]);
  });

  it('an empty `tool_calls: []` reaches Responses and Chat clients as plain text, never a call', () => {
    const responses = translateStream('chat', 'responses', readWire('chat-empty-tool-calls.1.stream.sse'));
    expect(listAt(responsesFinal(responses.data), 'output').map(item => item.type)).toEqual(['message']);
    expect(responses.verdict).toMatchObject({ violations: [], outcome: 'completed', text: 'Sunny in Oslo.' });
    const chat = translateStream('chat', 'chat', readWire('chat-empty-tool-calls.1.stream.sse'));
    expect(chatToolCalls(chat.data)).toEqual([]);
    expect(chatFinishReasons(chat.data)).toEqual(['stop']);
    const json = translateResponse('chat', 'messages', {
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      created: 1763769600,
      model: 'gpt-6',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Sunny.', tool_calls: [] },
          finish_reason: 'stop',
        },
      ],
    });
    expect(json).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'Sunny.' }] });
  });

  const usageChunkStream = readWire('chat-text-usage.1.stream.sse');
  it.each([
    ['with [DONE]', usageChunkStream],
    ['cut right after the usage chunk', cutBefore(usageChunkStream, 'data: [DONE]')],
  ])(
    'the usage-only `choices: []` chunk ends a Messages stream cleanly and its usage arrives (%s)',
    (_, upstreamText) => {
      const { data, verdict } = translateStream('chat', 'messages', upstreamText);
      expect(data.slice(-2).map(event => event.type)).toEqual(['message_delta', 'message_stop']);
      expect(at(ofType(data, 'message_delta')[0], 'usage')).toMatchObject({
        input_tokens: 12,
        output_tokens: 2,
      });
      expect(verdict).toMatchObject({ violations: [], outcome: 'completed', text: 'Hello world' });
    },
  );

  it('the usage-only chunk completes a Responses stream with its usage, and is kept for Chat clients that asked', () => {
    const responses = translateStream('chat', 'responses', usageChunkStream);
    expect(responses.verdict).toMatchObject({ violations: [], outcome: 'completed' });
    expect(responsesFinal(responses.data).usage).toMatchObject({
      input_tokens: 12,
      output_tokens: 2,
      total_tokens: 14,
    });
    const asked = translateStream('chat', 'chat', usageChunkStream, {
      stream_options: { include_usage: true },
    });
    expect(asked.verdict.violations).toEqual([]);
    expect(asked.data.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 2 },
    });
    const notAsked = translateStream('chat', 'chat', usageChunkStream);
    expect(notAsked.verdict.violations).toEqual([]);
  });

  it.each([
    ['responses', 'responses-call-done-only.1.stream.sse'],
    ['chat', 'chat-cached-usage.1.stream.sse'],
  ] as const)(
    'cache tokens from a %s upstream reach Messages clients in message_delta.usage',
    (upstream, fixture) => {
      const { data, verdict } = translateStream(upstream, 'messages', readWire(fixture));
      // OpenAI counts cached tokens inside the input tokens (https://platform.openai.com/docs/guides/prompt-caching);
      // Anthropic's input_tokens are the uncached input only (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching).
      expect(at(ofType(data, 'message_delta')[0], 'usage')).toMatchObject({
        input_tokens: 112,
        cache_read_input_tokens: 1200,
        output_tokens: 42,
      });
      expect(verdict.violations).toEqual([]);
    },
  );

  it('cache tokens from an OpenAI upstream reach Messages clients in a JSON answer', () => {
    const usage = {
      input_tokens: 1312,
      input_tokens_details: { cached_tokens: 1200 },
      output_tokens: 42,
      output_tokens_details: { reasoning_tokens: 16 },
      total_tokens: 1354,
    };
    const body = {
      id: 'resp_abc',
      object: 'response',
      status: 'completed',
      model: 'gpt-6',
      output: [],
      usage,
    };
    expect(translateResponse('responses', 'messages', body).usage).toMatchObject({
      input_tokens: 112,
      cache_read_input_tokens: 1200,
      output_tokens: 42,
    });
  });

  it.each(DIRECTIONS)(
    'a mid-stream %s upstream error becomes the %s client error terminal',
    (upstream, client) => {
      const { data, verdict } = translateStream(upstream, client, readWire(UPSTREAM_ERROR[upstream].fixture));
      expectErrorTerminal(client, data, UPSTREAM_ERROR[upstream].said);
      expect(verdict.violations).toEqual([]);
      expect(['error', 'failed']).toContain(verdict.outcome);
    },
  );

  it.each(DIRECTIONS)(
    'a %s upstream stream cut before its terminal is never a clean stop for a %s client',
    (upstream, client) => {
      const { data, verdict } = translateStream(upstream, client, CUT_STREAM[upstream]());
      expectErrorTerminal(client, data);
      expect(verdict.violations).toEqual([]);
      expect(['error', 'failed']).toContain(verdict.outcome);
    },
  );

  it.each([
    ['flat `error` event', 'responses-error-flat.1.stream.sse', /Rate limit reached/, 'rate_limit_error'],
    ['nested `error` event', 'responses-error-nested.1.stream.sse', /no credits remaining/, 'api_error'],
    ['`response.failed`', 'responses-failed.1.stream.sse', /model crashed mid-answer/, 'api_error'],
  ])(
    'the %s Responses error shape is parsed (message and class kept)',
    (_, fixture, said, messagesType) => {
      const messages = translateStream('responses', 'messages', readWire(fixture));
      const [error] = messages.ir.filter(event => event.type === 'error');
      expect(error?.type === 'error' && error.error.message).toMatch(said);
      expect(messages.data.at(-1)).toMatchObject({
        type: 'error',
        error: { type: messagesType, message: expect.stringMatching(said) },
      });
      const chat = translateStream('responses', 'chat', readWire(fixture));
      expect(at(chat.data.at(-1), 'error', 'message')).toMatch(said);
    },
  );

  it('a flat rate-limit `error` event keeps its code for Responses clients', () => {
    const { data, verdict } = translateStream(
      'responses',
      'responses',
      readWire('responses-error-flat.1.stream.sse'),
    );
    expect(at(responsesFinal(data), 'error')).toMatchObject({
      code: 'rate_limit_exceeded',
      message: expect.stringMatching(/Rate limit reached/),
    });
    expect(verdict.violations).toEqual([]);
  });

  it.each([
    ['messages', 'messages-parallel-tools.1.stream.sse', ['toolu_01Weather', 'toolu_02Time']],
    ['responses', 'responses-parallel-calls.1.stream.sse', ['call_w', 'call_t']],
  ] as const)(
    'parallel tool calls from a %s upstream keep distinct Chat indices',
    (upstream, fixture, ids) => {
      const { data, verdict } = translateStream(upstream, 'chat', readWire(fixture));
      const calls = chatToolCalls(data);
      expect(calls.map(call => [call.index, call.id, call.name])).toEqual([
        [0, ids[0], 'get_weather'],
        [1, ids[1], 'get_time'],
      ]);
      for (const call of calls) expect(JSON.parse(call.arguments)).toEqual({ city: 'Oslo' });
      expect(verdict.violations).toEqual([]);
      expect(chatFinishReasons(data)).toEqual(['tool_calls']);
    },
  );

  it('parallel tool_use blocks in a Messages JSON answer become distinct Chat tool calls', () => {
    const answer = translateResponse('messages', 'chat', {
      id: 'msg_01AbC',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5',
      stop_reason: 'tool_use',
      stop_sequence: null,
      content: [
        { type: 'tool_use', id: 'toolu_01Weather', name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'toolu_02Time', name: 'get_time', input: { city: 'Oslo' } },
      ],
      usage: { input_tokens: 10, output_tokens: 20 },
    });
    const calls = listAt(answer, 'choices', 0, 'message', 'tool_calls');
    expect(calls.map(call => [call.id, at(call, 'function', 'name')])).toEqual([
      ['toolu_01Weather', 'get_weather'],
      ['toolu_02Time', 'get_time'],
    ]);
    expect(at(answer, 'choices', 0, 'finish_reason')).toBe('tool_calls');
  });

  it.each([
    ['messages', 'messages-text.1.stream.sse', 'stop'],
    ['messages', 'messages-parallel-tools.1.stream.sse', 'tool_calls'],
    ['responses', 'responses-text.1.stream.sse', 'stop'],
    ['responses', 'responses-call-done-only.1.stream.sse', 'tool_calls'],
    ['chat', 'chat-text-usage.1.stream.sse', 'stop'],
    ['chat', 'chat-no-finish-reason.1.stream.sse', 'stop'],
  ] as const)(
    'a Chat stream from %s (%s) sends a finish_reason chunk before [DONE]',
    (upstream, fixture, reason) => {
      const { messages, data, verdict } = translateStream(upstream, 'chat', readWire(fixture));
      expect(messages.at(-1)?.data).toBe('[DONE]');
      expect(at(data.at(-1), 'choices', 0, 'finish_reason')).toBe(reason);
      expect(verdict).toMatchObject({ violations: [], outcome: 'completed' });
    },
  );

  it.each([
    ['messages', 'messages-no-input-tool.1.stream.sse'],
    ['chat', 'chat-no-arguments.1.stream.sse'],
  ] as const)(
    'an argument-less call from a %s upstream reaches every client as parseable `{}`',
    (upstream, fixture) => {
      const messages = translateStream(upstream, 'messages', readWire(fixture));
      const [tool] = messagesBlocks(messages.data);
      expect(tool?.block).toMatchObject({ type: 'tool_use', name: 'get_utc_time', input: {} });
      expect(JSON.parse(tool!.json || '{}')).toEqual({});
      const chat = translateStream(upstream, 'chat', readWire(fixture));
      expect(chatToolCalls(chat.data).map(call => JSON.parse(call.arguments))).toEqual([{}]);
      const responses = translateStream(upstream, 'responses', readWire(fixture));
      const [call] = listAt(responsesFinal(responses.data), 'output');
      expect(JSON.parse(String(call?.arguments))).toEqual({});
      for (const verdict of [messages.verdict, chat.verdict, responses.verdict])
        expect(verdict.violations).toEqual([]);
    },
  );

  it('arguments a compatible server sends whole in the first fragment (not streamed) are kept', () => {
    const whole = readWire('chat-no-arguments.1.stream.sse').replace(
      '"arguments":""',
      '"arguments":"{\\"tz\\":\\"UTC\\"}"',
    );
    const [tool] = messagesBlocks(translateStream('chat', 'messages', whole).data);
    expect(JSON.parse(tool!.json)).toEqual({ tz: 'UTC' });
    expect(chatToolCalls(translateStream('chat', 'chat', whole).data)[0]?.arguments).toBe('{"tz":"UTC"}');
    const json = translateResponse('chat', 'chat', {
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      created: 1763769600,
      model: 'gpt-6',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_c', type: 'function', function: { name: 'get_utc_time', arguments: '' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    expect(at(json, 'choices', 0, 'message', 'tool_calls', 0, 'function', 'arguments')).toBe('{}');
  });
});
