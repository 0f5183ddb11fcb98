import type { JSONObject } from '@signalbox/core';
import {
  indexOfType,
  mutateData,
  mutateEveryData,
  readStreamFixture,
  removeMessage,
  resequence,
  swapMessages,
} from './sse-message-mutations';
import { expectOnlyViolations as expectOnly } from './expect-only-violations';
import { validateResponsesStream } from './validate-responses-stream';

// Wire-shaped synthetic fixtures after the events of https://platform.openai.com/docs/api-reference/responses-streaming (see test/__fixtures__/README.md).
// responses-reasoning-tool.1: reasoning rs_1 (2-8), message msg_1 (9-15), function_call fc_1 (16-20), completed 21.
const text = readStreamFixture('responses-text.1');
const mixed = readStreamFixture('responses-reasoning-tool.1');

describe('validateResponsesStream: output items and parts', () => {
  it('flags an output_index that does not start at 0', () => {
    const messages = mutateEveryData(text, data => {
      if ('output_index' in data) data.output_index = 1;
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #2 (response.output_item.added): output_index 1, expected 0',
    );
  });

  it('flags an item_id that does not match the item', () => {
    const messages = mutateData(text, 4, data => {
      data.item_id = 'msg_2';
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #4 (response.output_text.delta): item_id "msg_2" does not match the item\'s id "msg_1"',
    );
  });

  it('flags a duplicate item id', () => {
    const messages = mixed.map(message => ({
      ...message,
      data: message.data.replaceAll('"msg_1"', '"rs_1"'),
    }));
    expectOnly(
      validateResponsesStream(messages),
      'event #9 (response.output_item.added): duplicate item id "rs_1"',
    );
  });

  it('flags a function_call item without a call_id', () => {
    const messages = mixed.map(message => ({
      ...message,
      data: message.data.replace('"call_id":"call_9",', ''),
    }));
    expectOnly(
      validateResponsesStream(messages),
      'event #16 (response.output_item.added): function_call item needs a string call_id',
    );
  });

  it('flags an event whose item type does not fit', () => {
    const messages = mutateData(mixed, indexOfType(mixed, 'response.function_call_arguments.delta'), data => {
      data.output_index = 1;
      data.item_id = 'msg_1';
    });
    expect(validateResponsesStream(messages).violations[0]).toContain(
      'event #17 (response.function_call_arguments.delta): targets a message item at output_index 1; needs a function_call',
    );
  });

  it('flags a text delta before its content_part.added', () => {
    const verdict = validateResponsesStream(resequence(swapMessages(text, 3, 4)));
    expect(verdict.violations[0]).toContain(
      'event #3 (response.output_text.delta): content_index 0 of item "msg_1" has no content_part.added',
    );
  });

  it('flags a content_index that skips', () => {
    const messages = mutateEveryData(text, data => {
      if ('content_index' in data) data.content_index = 1;
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #3 (response.content_part.added): content_index 1, expected 0',
    );
  });

  it('flags a text delta on a part of another type', () => {
    const messages = mutateData(text, 3, data => {
      data.part = { type: 'refusal', refusal: '' };
    });
    expect(validateResponsesStream(messages).violations[0]).toContain(
      'event #4 (response.output_text.delta): targets a refusal part; needs output_text',
    );
  });

  it('flags output_text.done text that differs from the deltas', () => {
    const messages = mutateData(text, 6, data => {
      data.text = 'Hello';
    });
    expect(validateResponsesStream(messages).violations[0]).toContain(
      'event #6 (response.output_text.done): text "Hello" differs from the concatenated deltas "Hello world"',
    );
  });

  it('flags content_part.done before the part text is done', () => {
    const verdict = validateResponsesStream(resequence(swapMessages(text, 6, 7)));
    expect(verdict.violations[0]).toContain(
      'event #6 (response.content_part.done): content_part.done before the output_text .done event of part 0',
    );
  });

  it('flags function_call_arguments.done that differs from the deltas', () => {
    const messages = mutateData(mixed, indexOfType(mixed, 'response.function_call_arguments.done'), data => {
      data.arguments = '{"city":"Bergen"}';
    });
    expect(validateResponsesStream(messages).violations[0]).toContain(
      'event #19 (response.function_call_arguments.done): arguments "{\\"city\\":\\"Bergen\\"}" differ from the concatenated deltas',
    );
  });

  it('flags a reasoning summary delta without its part', () => {
    const verdict = validateResponsesStream(resequence(removeMessage(mixed, 3)));
    expect(verdict.violations[0]).toContain(
      'event #3 (response.reasoning_summary_text.delta): summary_index 0 of item "rs_1" has no reasoning_summary_part.added',
    );
  });

  it('flags a final message item whose text differs from the streamed text', () => {
    const messages = mutateData(text, 8, data => {
      data.item = {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello', annotations: [] }],
      };
    });
    expectOnly(
      validateResponsesStream(messages),
      'event #8 (response.output_item.done): final content[0] {"type":"output_text","text":"Hello"',
    );
  });

  it('requires a final status on message items but not on reasoning items', () => {
    const withoutStatus = (index: number) =>
      mutateData(mixed, index, data => {
        delete (data.item as JSONObject).status;
      });
    expect(validateResponsesStream(withoutStatus(8)).violations).toEqual([]);
    expectOnly(
      validateResponsesStream(withoutStatus(15)),
      'event #15 (response.output_item.done): final item status must be "completed" or "incomplete", got undefined',
    );
  });

  it('flags an item never closed by output_item.done', () => {
    expectOnly(
      validateResponsesStream(resequence(removeMessage(text, 8))),
      'event #8 (response.completed): item "msg_1" at output_index 0 has no output_item.done',
    );
  });
});
