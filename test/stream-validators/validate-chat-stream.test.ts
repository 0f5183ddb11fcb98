import type { JSONObject, SSEMessage } from '@signalbox/core';
import {
  dataOf,
  insertMessage,
  mutateData,
  readStreamFixture,
  removeMessage,
  replaceMessage,
} from './sse-message-mutations';
import { expectOnlyViolations as expectOnly } from './expect-only-violations';
import { validateChatStream } from './validate-chat-stream';

// Wire-shaped synthetic fixtures after the streaming examples of https://platform.openai.com/docs/api-reference/chat-streaming (see test/__fixtures__/README.md).
// chat-text-usage.1: 0 role, 1-2 content, 3 finish "stop", 4 usage chunk, 5 [DONE].
// chat-tool-calls.1: 0 role + call 0 start, 1-2 call 0 arguments, 3-4 call 1, 5 finish "tool_calls", 6 [DONE].
const textUsage = readStreamFixture('chat-text-usage.1');
const toolCalls = readStreamFixture('chat-tool-calls.1');

function mutateChoice(
  messages: SSEMessage[],
  index: number,
  change: (choice: JSONObject) => void,
): SSEMessage[] {
  return mutateData(messages, index, data => {
    const choice = Array.isArray(data.choices) ? data.choices[0] : undefined;
    if (typeof choice !== 'object' || choice === null || Array.isArray(choice)) throw new Error('no choice');
    change(choice);
  });
}

function toolCallChunk(fragment: JSONObject): SSEMessage {
  const chunk = dataOf(toolCalls[1]);
  chunk.choices = [{ index: 0, delta: { tool_calls: [fragment] }, logprobs: null, finish_reason: null }];
  return { data: JSON.stringify(chunk) };
}

describe('validateChatStream: valid streams', () => {
  it('accepts a text stream with its usage chunk', () => {
    expect(validateChatStream(textUsage, { expectUsage: true })).toEqual({
      violations: [],
      outcome: 'completed',
      text: 'Hello world',
      events: ['chunk', 'chunk', 'chunk', 'chunk', 'usage', '[DONE]'],
    });
    expect(validateChatStream(textUsage).violations).toEqual([]);
  });

  it('accepts two parallel tool calls', () => {
    expect(validateChatStream(toolCalls, { expectUsage: false })).toMatchObject({
      violations: [],
      outcome: 'completed',
      text: '',
    });
  });

  it('accepts a mid-stream error frame as an error outcome', () => {
    expect(validateChatStream(readStreamFixture('chat-error.2'))).toMatchObject({
      violations: [],
      outcome: 'error',
      text: 'Hel',
    });
  });

  it('judges length as incomplete', () => {
    const messages = mutateChoice(textUsage, 3, choice => {
      choice.finish_reason = 'length';
    });
    expect(validateChatStream(messages)).toMatchObject({ violations: [], outcome: 'incomplete' });
  });
});

describe('validateChatStream: framing and chunk identity', () => {
  it('flags an event: line', () => {
    const messages = replaceMessage(textUsage, 1, { event: 'chunk', data: textUsage[1]?.data ?? '' });
    expectOnly(validateChatStream(messages), 'event #1 (chunk): event: line "chunk" in a Chat stream');
  });

  it('flags a chunk that is not JSON', () => {
    expectOnly(
      validateChatStream(insertMessage(textUsage, 1, { data: 'hello' })),
      'event #1 (chunk): data must be a JSON object or [DONE]',
    );
  });

  it('flags a chunk id that changes', () => {
    const messages = mutateData(textUsage, 2, data => {
      data.id = 'chatcmpl-other';
    });
    expectOnly(
      validateChatStream(messages),
      'event #2 (chunk): id "chatcmpl-other" differs from the first chunk\'s "chatcmpl-abc"',
    );
  });

  it('flags a wrong object', () => {
    const messages = mutateData(textUsage, 1, data => {
      data.object = 'chat.completion';
    });
    expectOnly(validateChatStream(messages), 'event #1 (chunk): object must be "chat.completion.chunk"');
  });

  it('flags a first chunk without role "assistant"', () => {
    expectOnly(
      validateChatStream(removeMessage(textUsage, 0)),
      'event #0 (chunk): the first chunk of choice 0 must carry delta.role "assistant"',
    );
  });
});

describe('validateChatStream: finish and terminal', () => {
  it('flags a stream without finish_reason', () => {
    const messages = mutateChoice(toolCalls, 5, choice => {
      choice.finish_reason = null;
    });
    const verdict = validateChatStream(messages);
    expectOnly(verdict, 'event #7 (end of stream): choice 0 never received a finish_reason');
    expect(verdict.outcome).toBe('none');
  });

  it('flags a second finish_reason', () => {
    expectOnly(
      validateChatStream(insertMessage(textUsage, 4, textUsage[3] ?? { data: '' })),
      'event #4 (chunk): choice 0 continues after its finish_reason',
    );
  });

  it('flags an unknown finish_reason', () => {
    const messages = mutateChoice(textUsage, 3, choice => {
      choice.finish_reason = 'end_turn';
    });
    expect(validateChatStream(messages).violations[0]).toContain(
      'event #3 (chunk): finish_reason must be null or a known reason, got "end_turn"',
    );
  });

  it('flags a missing [DONE]', () => {
    expectOnly(
      validateChatStream(textUsage.slice(0, 5)),
      'event #5 (end of stream): stream ended without data: [DONE]',
    );
  });

  it('flags a frame after [DONE]', () => {
    expectOnly(
      validateChatStream([...textUsage, textUsage[1] ?? { data: '' }]),
      'event #6 (chunk): frame after the [DONE]',
    );
  });

  it('flags anything after an error frame, even [DONE]', () => {
    const verdict = validateChatStream([...readStreamFixture('chat-error.2'), { data: '[DONE]' }]);
    expectOnly(verdict, 'event #3 (chunk): frame after the error frame: "[DONE]"');
    expect(verdict.outcome).toBe('error');
  });
});

describe('validateChatStream: usage chunk', () => {
  it('flags a usage chunk that was not requested', () => {
    expectOnly(
      validateChatStream(textUsage, { expectUsage: false }),
      'event #4 (chunk): usage chunk sent although stream_options.include_usage was not requested',
    );
  });

  it('flags a missing usage chunk that was requested', () => {
    expectOnly(
      validateChatStream(removeMessage(textUsage, 4), { expectUsage: true }),
      'event #5 (end of stream): usage chunk missing',
    );
  });

  it('flags a usage chunk before the finish_reason chunk', () => {
    const messages = [...textUsage];
    [messages[3], messages[4]] = [textUsage[4] ?? { data: '' }, textUsage[3] ?? { data: '' }];
    expect(validateChatStream(messages).violations[0]).toContain(
      'event #3 (chunk): usage chunk before the finish_reason chunk',
    );
  });

  it('flags usage totals that do not add up', () => {
    const messages = mutateData(textUsage, 4, data => {
      data.usage = { prompt_tokens: 12, completion_tokens: 2, total_tokens: 13 };
    });
    expectOnly(
      validateChatStream(messages),
      'event #4 (chunk): usage.total_tokens 13 != prompt_tokens 12 + completion_tokens 2',
    );
  });

  it('flags usage on a chunk with choices', () => {
    const messages = mutateData(textUsage, 1, data => {
      data.usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    });
    expectOnly(validateChatStream(messages), 'event #1 (chunk): usage must be null on chunks with choices');
  });
});

describe('validateChatStream: tool calls', () => {
  it('flags a tool-call index reused with a different id', () => {
    const reused = toolCallChunk({
      index: 0,
      id: 'call_X',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expectOnly(
      validateChatStream(insertMessage(toolCalls, 3, reused)),
      'event #3 (chunk): tool call index 0 reused with a different id "call_X" (first "call_9")',
    );
  });

  it('flags a tool-call index that skips', () => {
    const messages = mutateChoice(mutateChoice(toolCalls, 3, setToolIndex(2)), 4, setToolIndex(2));
    expectOnly(validateChatStream(messages), 'event #3 (chunk): tool call index 2, expected 1');
  });

  it('flags a first fragment without function.name', () => {
    const messages = replaceMessage(
      toolCalls,
      3,
      toolCallChunk({ index: 1, id: 'call_10', type: 'function', function: { arguments: '' } }),
    );
    expectOnly(
      validateChatStream(messages),
      'event #3 (chunk): the first fragment of tool call 1 needs function.name',
    );
  });

  it('flags arguments that do not parse as JSON', () => {
    expectOnly(
      validateChatStream(removeMessage(toolCalls, 2)),
      'event #4 (chunk): arguments of tool call 0 do not parse as JSON: "{\\"city\\":"',
    );
  });

  it('flags finish_reason "stop" after tool calls', () => {
    const messages = mutateChoice(toolCalls, 5, choice => {
      choice.finish_reason = 'stop';
    });
    expectOnly(
      validateChatStream(messages),
      'event #5 (chunk): tool calls streamed but finish_reason is "stop"',
    );
  });
});

function setToolIndex(index: number): (choice: JSONObject) => void {
  return choice => {
    const delta = choice.delta as JSONObject;
    const calls = delta.tool_calls as JSONObject[];
    for (const call of calls) call.index = index;
  };
}
