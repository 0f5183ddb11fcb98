import { GatewayError, type JSONObject } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import {
  at,
  clientBody,
  listAt,
  messagesBlocks,
  readWire,
  translateRequest,
  translateStream,
  type Wire,
} from './translation-helpers';

const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const OPENAI_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const weatherTool = {
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const chatWeatherTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: weatherTool.parameters },
};

/** A Responses input with one parallel tool round (`ids` are the call ids) and a follow-up user turn. */
function responsesToolRound(ids: readonly [string, string], between: JSONObject[] = []): JSONObject[] {
  return [
    { role: 'user', content: 'Weather and time in Oslo?' },
    { type: 'function_call', call_id: ids[0], name: 'get_weather', arguments: '{"city":"Oslo"}' },
    { type: 'function_call', call_id: ids[1], name: 'get_time', arguments: '{"city":"Oslo"}' },
    ...between,
    { type: 'function_call_output', call_id: ids[0], output: 'Sunny' },
    { type: 'function_call_output', call_id: ids[1], output: '14:00' },
    { role: 'user', content: 'And tomorrow?' },
  ];
}

/** The same round as Chat history. */
function chatToolRound(ids: readonly [string, string], between: JSONObject[] = []): JSONObject[] {
  const call = (id: string, name: string) => ({
    id,
    type: 'function',
    function: { name, arguments: '{"city":"Oslo"}' },
  });
  return [
    { role: 'user', content: 'Weather and time in Oslo?' },
    { role: 'assistant', content: null, tool_calls: [call(ids[0], 'get_weather'), call(ids[1], 'get_time')] },
    ...between,
    { role: 'tool', tool_call_id: ids[0], content: 'Sunny' },
    { role: 'tool', tool_call_id: ids[1], content: '14:00' },
    { role: 'user', content: 'And tomorrow?' },
  ];
}

/** One Messages tool round: the call with `id`, then its `tool_result` (`result` fields merged in). */
function anthropicToolRound(id: string, result: JSONObject = { content: 'Sunny' }): JSONObject[] {
  return [
    { role: 'user', content: 'Weather in Oslo?' },
    { role: 'assistant', content: [{ type: 'tool_use', id, name: 'get_weather', input: { city: 'Oslo' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, ...result }] },
  ];
}

function historyBody(client: Wire, ids: readonly [string, string], between: JSONObject[] = []): JSONObject {
  return client === 'responses'
    ? clientBody('responses', { input: responsesToolRound(ids, between) })
    : clientBody('chat', { messages: chatToolRound(ids, between) });
}

/**
 * Anthropic's pairing rule: every assistant turn with tool_use blocks is followed by a user turn
 * that opens with exactly those tool_result blocks
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use);
 * returns the (tool_use ids, tool_result ids) pairs.
 */
function expectToolPairing(messages: JSONObject[]): Array<[string[], string[]]> {
  const pairs: Array<[string[], string[]]> = [];
  messages.forEach((message, index) => {
    const uses = listAt(message, 'content').filter(block => block.type === 'tool_use');
    if (message.role !== 'assistant' || uses.length === 0) return;
    const next = messages[index + 1];
    expect(next?.role).toBe('user');
    const content = listAt(next, 'content');
    const results = content.slice(0, uses.length);
    expect(results.map(block => block.type)).toEqual(uses.map(() => 'tool_result'));
    expect(content.slice(uses.length).some(block => block.type === 'tool_result')).toBe(false);
    pairs.push([uses.map(block => String(block.id)), results.map(block => String(block.tool_use_id))]);
  });
  return pairs;
}

describe('tool calls and results across protocols', () => {
  it.each(['responses', 'chat'] as const)(
    '%s tool results are grouped into the one user turn right after the calls',
    client => {
      const { body } = translateRequest(client, 'messages', historyBody(client, ['call_w', 'call_t']));
      const messages = listAt(body, 'messages');
      expect(messages.map(message => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(expectToolPairing(messages)).toEqual([
        [
          ['call_w', 'call_t'],
          ['call_w', 'call_t'],
        ],
      ]);
      expect(listAt(messages[2], 'content').at(-1)).toEqual({ type: 'text', text: 'And tomorrow?' });
    },
  );

  it.each(['responses', 'chat'] as const)(
    'a %s system turn or user note between calls and results does not split the pair',
    client => {
      const between =
        client === 'responses'
          ? [
              { role: 'developer', content: 'Be brief.' },
              { role: 'user', content: 'Hurry.' },
            ]
          : [{ role: 'system', content: 'Be brief.' }];
      const { body } = translateRequest(
        client,
        'messages',
        historyBody(client, ['call_w', 'call_t'], between),
      );
      const messages = listAt(body, 'messages');
      expect(expectToolPairing(messages)).toEqual([
        [
          ['call_w', 'call_t'],
          ['call_w', 'call_t'],
        ],
      ]);
      expect(messages.every(message => message.role !== 'system')).toBe(true);
    },
  );

  it.each([
    [
      'chat',
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'tool', content: 'Sunny' },
        ],
      },
      /tool_call_id/,
    ],
    ['responses', { input: [{ type: 'function_call_output', output: 'Sunny' }] }, /call_id/],
    [
      'messages',
      { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'Sunny' }] }] },
      /tool_use_id/,
    ],
  ] as const)(
    'a %s tool result without its id is refused with a 400 naming the field',
    (client, extra, field) => {
      const error = gatewayErrorOf(() => translateRequest(client, 'messages', clientBody(client, extra)));
      expect(error.status).toBe(400);
      expect(`${error.param ?? ''} ${error.message}`).toMatch(field);
    },
  );

  it.each(['responses', 'chat'] as const)(
    'every tool_result sent to Anthropic from %s history carries its call id',
    client => {
      const { body } = translateRequest(client, 'messages', historyBody(client, ['call_w', 'call_t']));
      const results = listAt(body, 'messages')
        .flatMap(message => listAt(message, 'content'))
        .filter(block => block.type === 'tool_result');
      expect(results.map(block => block.tool_use_id)).toEqual(['call_w', 'call_t']);
    },
  );

  it.each([
    ['responses', readWire('responses-call-done-only.1.stream.sse').replaceAll('"call_id":"call_9",', '')],
    ['chat', readWire('chat-no-arguments.1.stream.sse').replace('"id":"call_clock",', '')],
  ] as const)(
    'a tool call from a %s upstream without a call id never reaches a Messages client with an empty id',
    (upstream, wire) => {
      const [tool] = messagesBlocks(translateStream(upstream, 'messages', wire).data);
      expect(tool?.block.type).toBe('tool_use');
      expect(tool?.block.id).toMatch(ANTHROPIC_TOOL_ID);
    },
  );

  it.each([
    ['chat', 'functions.get_weather:0'],
    ['responses', 'call.7/abc'],
  ] as const)(
    "a %s tool id outside Anthropic's pattern (%s) is mapped, for the call and its result alike",
    (client, id) => {
      const { body } = translateRequest(client, 'messages', historyBody(client, [id, 'call_t']));
      const [[uses, results]] = expectToolPairing(listAt(body, 'messages')) as [[string[], string[]]];
      expect(uses[0]).toMatch(ANTHROPIC_TOOL_ID);
      expect(results).toEqual(uses);
    },
  );

  it.each([
    ['responses', `call_${'x'.repeat(60)}`],
    ['messages', `toolu_${'Y'.repeat(58)}`],
  ] as const)(
    'a %s tool id longer than 40 characters is mapped the same way for the Chat call and result',
    (client, id) => {
      const body =
        client === 'responses'
          ? clientBody('responses', { input: responsesToolRound([id, 'call_t']) })
          : clientBody('messages', { messages: anthropicToolRound(id) });
      const first = translateRequest(client, 'chat', body).body;
      const messages = listAt(first, 'messages');
      const callId = String(
        at(
          messages.find(message => message.role === 'assistant'),
          'tool_calls',
          0,
          'id',
        ),
      );
      expect(callId.length).toBeLessThanOrEqual(40);
      expect(messages.find(message => message.role === 'tool')?.tool_call_id).toBe(callId);
      // Deterministic: the next request of the same conversation maps the id identically.
      expect(translateRequest(client, 'chat', body).body).toEqual(first);
    },
  );

  it('valid ids pass unchanged in both directions', () => {
    const toAnthropic = translateRequest('chat', 'messages', historyBody('chat', ['call_w', 'call_t'])).body;
    expect(expectToolPairing(listAt(toAnthropic, 'messages'))).toEqual([
      [
        ['call_w', 'call_t'],
        ['call_w', 'call_t'],
      ],
    ]);
    const toChat = translateRequest(
      'messages',
      'chat',
      clientBody('messages', { messages: anthropicToolRound('toolu_01X') }),
    ).body;
    expect(at(toChat, 'messages', 1, 'tool_calls', 0, 'id')).toBe('toolu_01X');
    expect(at(toChat, 'messages', 2, 'tool_call_id')).toBe('toolu_01X');
  });

  const longName = `mcp__filesystem__${'read_multiple_text_files_'.repeat(4)}now`; // 120 characters: legal for Anthropic
  it.each(['responses', 'chat'] as const)(
    'a Messages tool name over 64 characters is never sent raw to a %s upstream (shortened or refused)',
    upstream => {
      const body = clientBody('messages', { tools: [{ name: longName, input_schema: { type: 'object' } }] });
      let translated: JSONObject;
      try {
        translated = translateRequest('messages', upstream, body).body;
      } catch (error) {
        // A gateway may shorten such a name or refuse it; when it refuses, it is a 400 naming the tool.
        expect(GatewayError.isInstance(error) && [error.status, error.param]).toEqual([
          400,
          expect.stringMatching(/^tools\.0/),
        ]);
        return;
      }
      const names = listAt(translated, 'tools').map(tool => at(tool, 'name') ?? at(tool, 'function', 'name'));
      for (const name of names) expect(name).toMatch(OPENAI_TOOL_NAME);
    },
  );

  it("Messages-to-Messages keeps names up to Anthropic's 128 and refuses longer ones naming the tool", () => {
    const tool = (name: string) =>
      clientBody('messages', { tools: [{ name, input_schema: { type: 'object' } }] });
    expect(at(translateRequest('messages', 'messages', tool(longName)).body, 'tools', 0, 'name')).toBe(
      longName,
    );
    const error = gatewayErrorOf(() => translateRequest('messages', 'messages', tool('n'.repeat(129))));
    expect([error.status, error.message]).toEqual([400, expect.stringContaining('tools.0.name')]);
  });

  it.each([
    [
      'chat',
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!', refusal: 'Not that.' },
          { role: 'user', content: 'Go on' },
        ],
      },
    ],
    [
      'messages',
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
          { role: 'user', content: 'Go on' },
        ],
      },
    ],
    [
      'responses',
      {
        input: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: [{ type: 'input_text', text: 'Hello!' }] },
          { role: 'user', content: 'Go on' },
        ],
      },
    ],
  ] as const)(
    '%s assistant history reaches a Responses upstream as output_text, never input_text',
    (client, extra) => {
      const input = listAt(translateRequest(client, 'responses', clientBody(client, extra)).body, 'input');
      const assistantParts = input
        .filter(item => item.role === 'assistant')
        .flatMap(item => listAt(item, 'content'));
      expect(assistantParts[0]).toMatchObject({ type: 'output_text', text: 'Hello!' });
      for (const part of assistantParts) expect(['output_text', 'refusal']).toContain(part.type);
    },
  );

  it.each(['messages', 'chat'] as const)(
    'every function_call from %s history has a function_call_output with call_id and output',
    client => {
      const anthropicRounds = [
        ...anthropicToolRound('toolu_A', { content: [{ type: 'text', text: 'Sunny' }] }),
        ...anthropicToolRound('toolu_B', { is_error: true }),
      ];
      const body =
        client === 'messages'
          ? clientBody('messages', { messages: anthropicRounds })
          : historyBody('chat', ['call_A', 'call_B']);
      const input = listAt(translateRequest(client, 'responses', body).body, 'input');
      const calls = input.filter(item => item.type === 'function_call');
      const outputs = input.filter(item => item.type === 'function_call_output');
      expect(calls).toHaveLength(2);
      expect(outputs.map(item => item.call_id)).toEqual(calls.map(item => item.call_id));
      for (const output of outputs)
        expect(typeof output.output === 'string' || Array.isArray(output.output)).toBe(true);
    },
  );

  it('Chat `content: null` and empty turns never reach Anthropic as null or empty messages', () => {
    const messages = [
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_w', content: 'Sunny' },
      { role: 'assistant', content: null },
      { role: 'user', content: '' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'Thanks' },
    ];
    const turns = listAt(
      translateRequest('chat', 'messages', clientBody('chat', { messages, tools: [chatWeatherTool] })).body,
      'messages',
    );
    for (const turn of turns) {
      expect(Array.isArray(turn.content) && turn.content.length > 0).toBe(true);
      for (const block of listAt(turn, 'content')) if (block.type === 'text') expect(block.text).not.toBe('');
    }
    expect(turns.map(turn => turn.role)).toEqual(['user', 'assistant', 'user']);
    expect(listAt(turns[2], 'content').map(block => block.type)).toEqual(['tool_result', 'text']);
  });

  it.each([
    [
      'responses',
      { tools: [weatherTool], tool_choice: 'required', reasoning: { effort: 'high' } },
      { type: 'any' },
    ],
    [
      'chat',
      {
        tools: [chatWeatherTool],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        reasoning_effort: 'medium',
      },
      { type: 'tool', name: 'get_weather' },
    ],
    [
      'messages',
      {
        max_tokens: 4096,
        tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
        tool_choice: { type: 'any' },
        thinking: { type: 'enabled', budget_tokens: 2048 },
      },
      { type: 'any' },
    ],
  ] as const)(
    'a forced tool_choice with thinking from %s keeps the choice and does not enable thinking (warned)',
    (client, extra, choice) => {
      const { body, warnings } = translateRequest(client, 'messages', clientBody(client, extra));
      expect(body.tool_choice).toEqual(choice);
      expect(['enabled', 'adaptive']).not.toContain(at(body, 'thinking', 'type'));
      expect(at(body, 'output_config', 'effort')).toBeUndefined();
      expect(warnings.map(warning => warning.field)).toContain('reasoning');
    },
  );
});
