import type { JSONObject } from '@signalbox/core';
import {
  at,
  chatText,
  clientBody,
  listAt,
  messagesBlocks,
  readWire,
  responsesFinal,
  translateRequest,
  translateResponse,
  translateStream,
  type Wire,
} from './translation-helpers';

// Values of the synthetic fixtures messages-thinking-tool.1 and the JSON answer below.
const THINKING = 'The user wants Oslo weather; call the tool — naïvely.';
const SIGNATURE = 'EqQBCkYIBxgCKkBsig+placeholder/only==';
const SUMMARY = 'Thinking about the Oslo forecast.';
const CHAT_REASONING = 'Secret chain of thought about Oslo.';
const weatherTool = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } };

const THINKING_BLOCK = { type: 'thinking', thinking: THINKING, signature: SIGNATURE };
const anthropicThinkingAnswer: JSONObject = {
  id: 'msg_01AbC',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-5',
  content: [
    THINKING_BLOCK,
    { type: 'tool_use', id: 'toolu_01Weather', name: 'get_weather', input: { city: 'Oslo' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 12, output_tokens: 30 },
};

/** The follow-up a stateless Responses client sends: its earlier output items replayed, plus the tool result. */
function replayToResponses(output: JSONObject[]): JSONObject {
  const call = output.find(item => item.type === 'function_call');
  return clientBody('responses', {
    tools: [weatherTool],
    input: [
      { role: 'user', content: 'Weather in Oslo?' },
      ...output,
      { type: 'function_call_output', call_id: String(call?.call_id), output: 'Sunny' },
    ],
  });
}

function assistantTurns(body: JSONObject): JSONObject[] {
  return listAt(body, 'messages').filter(message => message.role === 'assistant');
}

describe('reasoning and thinking across protocols', () => {
  it.each([
    ['chat', 'chat-reasoning-content.1.stream.sse'],
    ['responses', 'responses-reasoning-text.1.stream.sse'],
  ] as const)(
    'unsigned reasoning from a %s upstream is never emitted as a thinking block to Messages clients',
    (upstream, fixture) => {
      const { data, verdict } = translateStream(upstream, 'messages', readWire(fixture));
      expect(messagesBlocks(data).map(block => block.block.type)).toEqual(['text']);
      expect(verdict.violations).toEqual([]);
    },
  );

  it('unsigned reasoning in a JSON answer is never a thinking block for Messages clients', () => {
    const chat = translateResponse('chat', 'messages', {
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      created: 1763769600,
      model: 'gpt-6',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Sunny.', reasoning_content: CHAT_REASONING },
          finish_reason: 'stop',
        },
      ],
    });
    const responses = translateResponse('responses', 'messages', {
      id: 'resp_abc',
      object: 'response',
      status: 'completed',
      model: 'gpt-6',
      output: [
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: SUMMARY }],
          encrypted_content: 'gAAAAB-openai-opaque',
        },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }],
        },
      ],
    });
    for (const answer of [chat, responses])
      expect(listAt(answer, 'content').map(block => block.type)).toEqual(['text']);
  });

  it('foreign reasoning in replayed history is not sent to an Anthropic upstream', () => {
    const fromResponses = translateRequest(
      'responses',
      'messages',
      replayToResponses([
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: SUMMARY }],
          encrypted_content: 'gAAAAB-openai-opaque',
        },
        { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ]),
    );
    const fromMessages = translateRequest(
      'messages',
      'messages',
      clientBody('messages', {
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'unsigned', signature: '' },
              { type: 'text', text: 'Sunny.' },
            ],
          },
          { role: 'user', content: 'Thanks' },
        ],
      }),
    );
    for (const { body, warnings } of [fromResponses, fromMessages]) {
      const types = assistantTurns(body)
        .flatMap(turn => listAt(turn, 'content'))
        .map(block => block.type);
      expect(types).not.toContain('thinking');
      expect(types).not.toContain('redacted_thinking');
      expect(warnings.map(warning => warning.type)).toContain('lossy-conversion');
    }
  });

  it('signed thinking blocks in Messages history are replayed first and byte-for-byte', () => {
    const thinking = { type: 'thinking', thinking: `${THINKING}\n  trailing spaces  `, signature: SIGNATURE };
    const redacted = {
      type: 'redacted_thinking',
      data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
    };
    const { body } = translateRequest(
      'messages',
      'messages',
      clientBody('messages', {
        thinking: { type: 'enabled', budget_tokens: 1024 },
        max_tokens: 4096,
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: [
              thinking,
              redacted,
              { type: 'tool_use', id: 'toolu_01X', name: 'get_weather', input: {} },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01X', content: 'Sunny' }] },
        ],
      }),
    );
    const [assistant] = assistantTurns(body);
    expect(JSON.stringify(listAt(assistant, 'content').slice(0, 2))).toBe(
      JSON.stringify([thinking, redacted]),
    );
    expect(at(assistant, 'content', 2, 'type')).toBe('tool_use');
  });

  it.each([
    [
      'stream',
      () =>
        responsesFinal(
          translateStream('messages', 'responses', readWire('messages-thinking-tool.1.stream.sse')).data,
        ),
    ],
    ['JSON answer', () => translateResponse('messages', 'responses', anthropicThinkingAnswer)],
  ])(
    'Anthropic thinking a Responses client got (%s) goes back to Anthropic first and unchanged',
    (_, answer) => {
      const output = listAt(answer(), 'output');
      const { body } = translateRequest('responses', 'messages', {
        ...replayToResponses(output),
        reasoning: { effort: 'high' },
      });
      const [assistant] = assistantTurns(body);
      expect(listAt(assistant, 'content')[0]).toEqual(THINKING_BLOCK);
      expect(at(assistant, 'content', 1)).toMatchObject({ type: 'tool_use', id: 'toolu_01Weather' });
    },
  );

  it.each([
    [
      'chat',
      {
        reasoning_effort: 'high',
        tools: [{ type: 'function', function: { name: 'get_weather' } }],
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_9', content: 'Sunny' },
        ],
      },
    ],
    [
      'responses',
      {
        reasoning: { effort: 'high' },
        tools: [weatherTool],
        input: [
          { role: 'user', content: 'Weather?' },
          { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_9', output: 'Sunny' },
        ],
      },
    ],
  ] as const)(
    'a %s tool loop without signed thinking never enables Anthropic thinking with a thinking-less final assistant turn',
    (client, extra) => {
      const { body } = translateRequest(client, 'messages', clientBody(client, extra));
      const thinkingOn = ['enabled', 'adaptive'].includes(String(at(body, 'thinking', 'type')));
      const firstBlock = String(at(assistantTurns(body).at(-1), 'content', 0, 'type'));
      // With thinking on, Anthropic requires a final assistant turn to start with a thinking block
      // (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
      const outcome = thinkingOn
        ? `thinking on, final assistant turn starts with ${firstBlock}`
        : 'thinking off';
      expect(outcome).toMatch(/^thinking off$|starts with (redacted_)?thinking$/);
    },
  );

  it.each([
    ['responses', 'responses-reasoning-text.1.stream.sse', SUMMARY],
    ['messages', 'messages-thinking-tool.1.stream.sse', 'call the tool'],
    ['chat', 'chat-reasoning-content.1.stream.sse', CHAT_REASONING],
  ] as const)(
    'reasoning from a %s upstream never becomes visible text for any client',
    (upstream, fixture, secret) => {
      const clients: Wire[] = ['chat', 'messages', 'responses'];
      for (const client of clients) {
        const { data, verdict } = translateStream(upstream, client, readWire(fixture));
        const visible = client === 'chat' ? chatText(data) : verdict.text;
        expect(visible).not.toContain(secret);
        if (upstream !== 'messages') expect(visible).toBe('It is sunny.');
      }
    },
  );

  it('reasoning in a JSON answer never becomes Chat content', () => {
    const answer = translateResponse('messages', 'chat', {
      ...anthropicThinkingAnswer,
      content: [THINKING_BLOCK, { type: 'text', text: 'Checking.' }],
      stop_reason: 'end_turn',
    });
    expect(at(answer, 'choices', 0, 'message', 'content')).toBe('Checking.');
  });

  it.each([
    ['responses', { reasoning: { effort: 'high' } }, 'high'],
    ['responses', { reasoning: { effort: 'minimal' } }, 'low'],
    ['responses', { reasoning: { effort: 'xhigh' } }, 'xhigh'],
    ['chat', { reasoning_effort: 'medium' }, 'medium'],
  ] as const)(
    '%s effort %j goes to Anthropic as adaptive thinking + output_config.effort %s',
    (client, extra, effort) => {
      const { body } = translateRequest(client, 'messages', clientBody(client, extra));
      expect(body.thinking).toEqual({ type: 'adaptive' });
      expect(at(body, 'output_config', 'effort')).toBe(effort);
      expect(at(body, 'thinking', 'budget_tokens')).toBeUndefined();
    },
  );

  it('effort none disables Anthropic thinking', () => {
    expect(
      translateRequest('chat', 'messages', clientBody('chat', { reasoning_effort: 'none' })).body.thinking,
    ).toEqual({ type: 'disabled' });
  });

  it.each(['high', 'low', 'xhigh'] as const)(
    'Claude Code style adaptive thinking + effort %s keeps its effort on every upstream (no budget pinning)',
    effort => {
      const body = clientBody('messages', { thinking: { type: 'adaptive' }, output_config: { effort } });
      expect(at(translateRequest('messages', 'responses', body).body, 'reasoning', 'effort')).toBe(effort);
      expect(translateRequest('messages', 'chat', body).body.reasoning_effort).toBe(effort);
      const anthropic = translateRequest('messages', 'messages', body).body;
      expect([anthropic.thinking, at(anthropic, 'output_config', 'effort')]).toEqual([
        { type: 'adaptive' },
        effort,
      ]);
    },
  );

  it('a large thinking budget is not pinned to the lowest effort for OpenAI upstreams', () => {
    const body = clientBody('messages', {
      max_tokens: 32000,
      thinking: { type: 'enabled', budget_tokens: 24000 },
    });
    expect(at(translateRequest('messages', 'responses', body).body, 'reasoning', 'effort')).toBe('high');
  });
});
