import type { JSONObject, SSEMessage } from '@signalbox/core';
import {
  dataOf,
  insertMessage,
  mutateData,
  mutateEveryData,
  namedEvent,
  readStreamFixture,
  removeMessage,
  replaceMessage,
  resequence,
} from './sse-message-mutations';
import { expectOnlyViolations as expectOnly } from './expect-only-violations';
import { validateResponsesStream } from './validate-responses-stream';

// Wire-shaped synthetic fixtures after the events of https://platform.openai.com/docs/api-reference/responses-streaming (see test/__fixtures__/README.md).
const text = readStreamFixture('responses-text.1');
const mixed = readStreamFixture('responses-reasoning-tool.1');

function responseOf(data: JSONObject): JSONObject {
  const response = data.response;
  if (typeof response !== 'object' || response === null || Array.isArray(response)) {
    throw new Error('no response');
  }
  return response;
}

function withTerminal(
  messages: SSEMessage[],
  change: (data: JSONObject, response: JSONObject) => void,
): SSEMessage[] {
  const changed = mutateData(messages, messages.length - 1, data => change(data, responseOf(data)));
  const last = changed[changed.length - 1];
  return last ? replaceMessage(changed, changed.length - 1, namedEvent(dataOf(last))) : changed;
}

describe('validateResponsesStream: valid streams', () => {
  it('accepts a plain text answer stream', () => {
    const verdict = validateResponsesStream(text);
    expect(verdict).toEqual({
      violations: [],
      outcome: 'completed',
      text: 'Hello world',
      events: expect.arrayContaining([
        'response.created',
        'response.output_text.delta',
        'response.completed',
      ]),
    });
    expect(verdict.events).toHaveLength(10);
  });

  it('accepts reasoning summary, text and a function call in one response', () => {
    expect(validateResponsesStream(mixed)).toMatchObject({
      violations: [],
      outcome: 'completed',
      text: 'Checking Oslo.',
    });
  });

  it('accepts an error event carrying both shapes', () => {
    expect(validateResponsesStream(readStreamFixture('responses-error.1'))).toMatchObject({
      violations: [],
      outcome: 'error',
    });
  });

  it('reports failed and incomplete terminals as their outcomes', () => {
    const failed = withTerminal(text, (data, response) => {
      data.type = 'response.failed';
      response.status = 'failed';
      response.error = { code: 'server_error', message: 'boom' };
    });
    const incomplete = withTerminal(text, (data, response) => {
      data.type = 'response.incomplete';
      response.status = 'incomplete';
      response.incomplete_details = { reason: 'max_output_tokens' };
    });
    expect(validateResponsesStream(failed)).toMatchObject({ violations: [], outcome: 'failed' });
    expect(validateResponsesStream(incomplete)).toMatchObject({ violations: [], outcome: 'incomplete' });
  });
});

describe('validateResponsesStream: framing and sequence', () => {
  it('flags a missing event: line', () => {
    const messages = replaceMessage(text, 4, { data: text[4]?.data ?? '' });
    expectOnly(
      validateResponsesStream(messages),
      'event #4 (response.output_text.delta): missing event: line',
    );
  });

  it('flags an event: line that differs from data.type', () => {
    const messages = replaceMessage(text, 4, { event: 'response.text.delta', data: text[4]?.data ?? '' });
    expectOnly(
      validateResponsesStream(messages),
      'event #4 (response.output_text.delta): event: line "response.text.delta"',
    );
  });

  it('flags data that is not JSON', () => {
    const messages = insertMessage(text, 4, { event: 'response.output_text.delta', data: '{"type":' });
    expect(validateResponsesStream(resequence(messages)).violations).toContainEqual(
      expect.stringContaining('event #4 (response.output_text.delta): data must be a JSON object'),
    );
  });

  it('flags a sequence gap once', () => {
    const messages = mutateEveryData(text, (data, index) => {
      if (index >= 5) data.sequence_number = index + 1;
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #5 (response.output_text.delta): sequence_number 6, expected 5',
    );
  });

  it('flags sequence numbers that do not start at 0', () => {
    const messages = mutateEveryData(text, (data, index) => {
      data.sequence_number = index + 1;
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #0 (response.created): sequence_number 1, expected 0',
    );
  });

  it('flags a missing sequence_number', () => {
    const messages = mutateData(text, 3, data => {
      delete data.sequence_number;
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #3 (response.content_part.added): sequence_number must be an integer',
    );
  });
});

describe('validateResponsesStream: lifecycle', () => {
  it('flags a stream that does not start with response.created', () => {
    expectOnly(
      validateResponsesStream(resequence(removeMessage(text, 0))),
      'event #0 (response.in_progress): the first event must be response.created',
    );
  });

  it('flags output before response.in_progress, once', () => {
    expectOnly(
      validateResponsesStream(resequence(removeMessage(text, 1))),
      'event #1 (response.output_item.added): response.in_progress must follow response.created',
    );
  });

  it('flags a second response.created', () => {
    const messages = resequence(insertMessage(text, 2, text[0] ?? { data: '' }));
    expectOnly(validateResponsesStream(messages), 'event #2 (response.created): second response.created');
  });

  it('flags a response id that changes', () => {
    const messages = withTerminal(text, (_, response) => {
      response.id = 'resp_other';
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #9 (response.completed): response.id "resp_other" differs from the first one, "resp_abc"',
    );
  });
});

describe('validateResponsesStream: terminals', () => {
  it('flags two terminals', () => {
    const second = mutateData(text, 9, data => {
      data.sequence_number = 10;
    })[9];
    const verdict = validateResponsesStream(insertMessage(text, 10, second ?? { data: '' }));
    expectOnly(verdict, 'event #10 (response.completed): event after the terminal response.completed');
    expect(verdict.outcome).toBe('completed');
  });

  it('flags an event after the terminal', () => {
    const late = namedEvent({
      type: 'response.output_text.delta',
      sequence_number: 10,
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: '!',
      logprobs: [],
    });
    const verdict = validateResponsesStream([...text, late]);
    expectOnly(
      verdict,
      'event #10 (response.output_text.delta): event after the terminal response.completed',
    );
    expect(verdict.text).toBe('Hello world');
  });

  it('flags a stream without a terminal', () => {
    const verdict = validateResponsesStream(text.slice(0, 9));
    expectOnly(verdict, 'event #9 (end of stream): stream ended without a terminal event');
    expect(verdict.outcome).toBe('none');
  });

  it('flags a terminal status that does not match its event', () => {
    const messages = withTerminal(text, (_, response) => {
      response.status = 'in_progress';
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #9 (response.completed): response.status must be "completed", got "in_progress"',
    );
  });

  it('flags response.incomplete without incomplete_details.reason', () => {
    const messages = withTerminal(text, (data, response) => {
      data.type = 'response.incomplete';
      response.status = 'incomplete';
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #9 (response.incomplete): response.incomplete_details.reason is required',
    );
  });

  it('flags a completed output that differs from the streamed items', () => {
    const messages = withTerminal(text, (_, response) => {
      response.output = [];
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #9 (response.completed): response.output has 0 items, 1 were streamed',
    );
  });

  it('flags usage whose total is not input + output', () => {
    const messages = withTerminal(text, (_, response) => {
      response.usage = { input_tokens: 12, output_tokens: 2, total_tokens: 15 };
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #9 (response.completed): response.usage.total_tokens 15 != input_tokens 12 + output_tokens 2',
    );
  });

  it('flags an error event with only the flat shape', () => {
    const messages = mutateData(readStreamFixture('responses-error.1'), 2, data => {
      delete data.error;
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #2 (error): error event lacks the nested error:{type, code, message} shape',
    );
  });

  it('flags unknown event types, including keepalive', () => {
    const unknown = resequence(
      insertMessage(text, 4, namedEvent({ type: 'response.text.delta', delta: 'x' })),
    );
    const keepalive = resequence(insertMessage(text, 4, namedEvent({ type: 'keepalive' })));
    expectOnly(
      validateResponsesStream(unknown),
      'event #4 (response.text.delta): unknown event type "response.text.delta"',
    );
    expectOnly(validateResponsesStream(keepalive), 'event #4 (keepalive): unknown event type "keepalive"');
  });
});
