import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError, type JSONObject } from '@signalbox/core';
import {
  at,
  clientBody,
  listAt,
  messagesBlocks,
  ofType,
  readWire,
  responsesFinal,
  translateRequest,
  translateResponse,
  translateStream,
  WIRES,
  type Wire,
} from './translation-helpers';

const CHAT_FINISH_REASONS = ['stop', 'length', 'tool_calls', 'content_filter'];
const MESSAGES_STOP_REASONS = [
  'end_turn',
  'stop_sequence',
  'tool_use',
  'max_tokens',
  'refusal',
  'pause_turn',
  'model_context_window_exceeded',
];
const RESPONSES_INCOMPLETE_REASONS = [null, 'max_output_tokens', 'content_filter'];
const REFUSAL = "I can't help with that.";

function anthropicAnswer(
  stopReason: string,
  content: JSONObject[] = [{ type: 'text', text: 'Partial answer' }],
): JSONObject {
  return {
    id: 'msg_01AbC',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 4 },
  };
}

function chatAnswer(message: JSONObject, finishReason: string | null): JSONObject {
  return {
    id: 'chatcmpl-abc',
    object: 'chat.completion',
    created: 1763769600,
    model: 'gpt-6',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
  };
}

/** Asserts the client's own stop vocabulary: no provider-native word leaks across protocols. */
function expectOwnVocabulary(client: Wire, answer: JSONObject): void {
  if (client === 'chat') expect(CHAT_FINISH_REASONS).toContain(at(answer, 'choices', 0, 'finish_reason'));
  if (client === 'messages') expect(MESSAGES_STOP_REASONS).toContain(answer.stop_reason);
  if (client === 'responses') {
    expect(['completed', 'incomplete', 'failed']).toContain(answer.status);
    expect(RESPONSES_INCOMPLETE_REASONS).toContain(at(answer, 'incomplete_details', 'reason') ?? null);
  }
}

/** How a JSON answer reads to its client: a clean stop, or not (an error thrown by the gateway is not). */
function readsAsCleanStop(client: Wire, answer: () => JSONObject): boolean {
  let body: JSONObject;
  try {
    body = answer();
  } catch (error) {
    if (GatewayError.isInstance(error)) return false;
    throw error;
  }
  if (client === 'chat')
    return ['stop', 'tool_calls'].includes(String(at(body, 'choices', 0, 'finish_reason')));
  if (client === 'messages')
    return ['end_turn', 'stop_sequence', 'tool_use'].includes(String(body.stop_reason));
  return body.status === 'completed';
}

describe('stop reasons, refusals and usage across protocols', () => {
  it.each([
    'end_turn',
    'stop_sequence',
    'tool_use',
    'max_tokens',
    'refusal',
    'model_context_window_exceeded',
    'a_future_reason',
  ])('Anthropic stop_reason %s never leaks to OpenAI clients (JSON and stream)', stopReason => {
    expect(
      at(translateResponse('messages', 'chat', anthropicAnswer(stopReason)), 'choices', 0, 'finish_reason'),
    ).not.toBe(stopReason);
    for (const client of ['chat', 'responses'] as const) {
      expectOwnVocabulary(client, translateResponse('messages', client, anthropicAnswer(stopReason)));
      const { data, verdict } = translateStream(
        'messages',
        client,
        readWire('messages-text.1.stream.sse').replace('"end_turn"', `"${stopReason}"`),
      );
      expect(verdict.violations).toEqual([]);
      if (client === 'chat')
        expect(CHAT_FINISH_REASONS).toContain(at(data.at(-1), 'choices', 0, 'finish_reason'));
      else expectOwnVocabulary(client, responsesFinal(data));
    }
  });

  it.each(['stop', 'length', 'tool_calls', 'content_filter', 'function_call', 'eos', null])(
    'Chat finish_reason %s never leaks to Messages or Responses clients',
    finishReason => {
      for (const client of ['messages', 'responses'] as const) {
        expectOwnVocabulary(
          client,
          translateResponse('chat', client, chatAnswer({ content: 'Sunny.' }, finishReason)),
        );
      }
      const stream = readWire('chat-text-usage.1.stream.sse').replace(
        '"finish_reason":"stop"',
        `"finish_reason":${JSON.stringify(finishReason)}`,
      );
      const { data } = translateStream('chat', 'messages', stream);
      expect(MESSAGES_STOP_REASONS).toContain(at(ofType(data, 'message_delta')[0], 'delta', 'stop_reason'));
    },
  );

  it('`finish_reason: stop` with tool calls is still a tool call for Messages and Responses clients (JSON)', () => {
    const answer = chatAnswer(
      {
        content: null,
        tool_calls: [
          { id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      'stop',
    );
    expect(translateResponse('chat', 'messages', answer)).toMatchObject({
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'call_9', name: 'get_weather', input: { city: 'Oslo' } }],
    });
    const responses = translateResponse('chat', 'responses', answer);
    expect(responses.status).toBe('completed');
    expect(listAt(responses, 'output').map(item => item.type)).toEqual(['function_call']);
    expect(at(translateResponse('chat', 'chat', answer), 'choices', 0, 'finish_reason')).toBe('tool_calls');
  });

  it('`finish_reason: stop` with streamed tool calls ends a Messages stream with stop_reason tool_use', () => {
    const messages = translateStream('chat', 'messages', readWire('chat-forced-call-stop.1.stream.sse'));
    expect(at(ofType(messages.data, 'message_delta')[0], 'delta', 'stop_reason')).toBe('tool_use');
    expect(messagesBlocks(messages.data).map(block => [block.block.type, block.json])).toEqual([
      ['tool_use', '{"city":"Oslo"}'],
    ]);
    const responses = translateStream('chat', 'responses', readWire('chat-forced-call-stop.1.stream.sse'));
    expect(listAt(responsesFinal(responses.data), 'output').map(item => item.type)).toEqual([
      'function_call',
    ]);
    for (const verdict of [messages.verdict, responses.verdict])
      expect(verdict).toMatchObject({ violations: [], outcome: 'completed' });
  });

  it('`finish_reason: tool_calls` without any tool call is not tool_use for Messages clients', () => {
    const stream = readWire('chat-text-usage.1.stream.sse').replace(
      '"finish_reason":"stop"',
      '"finish_reason":"tool_calls"',
    );
    const { data, verdict } = translateStream('chat', 'messages', stream);
    expect(messagesBlocks(data).map(block => block.block.type)).toEqual(['text']);
    expect(verdict.violations).toEqual([]);
    expect(at(ofType(data, 'message_delta')[0], 'delta', 'stop_reason')).not.toBe('tool_use');
    expect(
      translateResponse('chat', 'messages', chatAnswer({ content: 'Sunny.' }, 'tool_calls')).stop_reason,
    ).not.toBe('tool_use');
  });

  it.each(WIRES)(
    'an Anthropic `pause_turn` is never a clean stop for a %s client (stream and JSON)',
    client => {
      const stream = translateStream(
        'messages',
        client,
        readWire('messages-text.1.stream.sse').replace('"end_turn"', '"pause_turn"'),
      );
      expect(stream.verdict.violations).toEqual([]);
      expect(stream.verdict.outcome).not.toBe('completed');
      expect(
        readsAsCleanStop(client, () => translateResponse('messages', client, anthropicAnswer('pause_turn'))),
      ).toBe(false);
    },
  );

  it('a tool call cut by max_tokens in its input reaches a Chat client as `length`, never `tool_calls` (stream and JSON)', () => {
    // The Messages codec's fixture: the input stops mid-value, as the API sends it.
    const cut = readFileSync(join(__dirname, '../../packages/codec-anthropic-messages/src/__fixtures__/max-tokens-in-tool-input.1.stream.sse'), 'utf8');
    const { data } = translateStream('messages', 'chat', cut);
    const choices = data.flatMap(chunk => listAt(chunk, 'choices'));
    expect(choices.map(choice => choice.finish_reason).filter(reason => reason !== null)).toEqual(['length']);
    const fragments = choices.flatMap(choice => listAt(choice, 'delta', 'tool_calls')).map(call => at(call, 'function', 'arguments'));
    expect(fragments.join('')).toBe('{"city": "Tromsø", "days": ');

    const answer = anthropicAnswer('max_tokens', [
      { type: 'text', text: 'Checking the forecast.' },
      { type: 'tool_use', id: 'toolu_01Cut', name: 'get_weather', input: { city: 'Tromsø' } },
    ]);
    expect(at(translateResponse('messages', 'chat', answer), 'choices', 0, 'finish_reason')).toBe('length');
  });

  it.each(WIRES)(
    'a streamed Chat refusal reaches a %s client as kept text, not an empty turn',
    client => {
      const { data, verdict, text } = translateStream('chat', client, readWire('chat-refusal.1.stream.sse'));
      expect(verdict.violations).toEqual([]);
      if (client === 'messages') expect(messagesBlocks(data).map(block => block.text)).toEqual([REFUSAL]);
      if (client === 'responses')
        expect(listAt(responsesFinal(data), 'output', 0, 'content')).toEqual([
          { type: 'refusal', refusal: REFUSAL },
        ]);
      if (client === 'chat') expect(text).toContain(JSON.stringify(REFUSAL).slice(1, -1));
    },
  );

  it('refusals in JSON answers are kept for every client', () => {
    const chat = chatAnswer({ content: null, refusal: REFUSAL }, 'stop');
    expect(listAt(translateResponse('chat', 'messages', chat), 'content')).toEqual([
      expect.objectContaining({ type: 'text', text: REFUSAL }),
    ]);
    expect(listAt(translateResponse('chat', 'responses', chat), 'output', 0, 'content')).toEqual([
      { type: 'refusal', refusal: REFUSAL },
    ]);
    const responses = {
      id: 'resp_abc',
      object: 'response',
      status: 'completed',
      model: 'gpt-6',
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'refusal', refusal: REFUSAL }],
        },
      ],
    };
    expect(at(translateResponse('responses', 'chat', responses), 'choices', 0, 'message', 'refusal')).toBe(
      REFUSAL,
    );
    expect(listAt(translateResponse('responses', 'messages', responses), 'content')).toEqual([
      expect.objectContaining({ text: REFUSAL }),
    ]);
    const anthropic = translateResponse(
      'messages',
      'chat',
      anthropicAnswer('refusal', [{ type: 'text', text: REFUSAL }]),
    );
    expect(at(anthropic, 'choices', 0)).toMatchObject({
      finish_reason: 'content_filter',
      message: { content: REFUSAL },
    });
  });

  it.each([
    [
      'chat',
      {
        messages: [
          { role: 'user', content: 'Do it' },
          { role: 'assistant', content: null, refusal: REFUSAL },
          { role: 'user', content: 'Please?' },
        ],
      },
    ],
    [
      'responses',
      {
        input: [
          { role: 'user', content: 'Do it' },
          { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: REFUSAL }] },
          { role: 'user', content: 'Please?' },
        ],
      },
    ],
  ] as const)(
    'a refusal-only %s assistant turn is replayed to Anthropic as text, not dropped',
    (client, extra) => {
      const messages = listAt(
        translateRequest(client, 'messages', clientBody(client, extra)).body,
        'messages',
      );
      expect(messages.map(message => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(listAt(messages[1], 'content')).toEqual([{ type: 'text', text: REFUSAL }]);
    },
  );
});
