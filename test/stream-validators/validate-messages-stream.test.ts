import type { JSONObject } from '@signalbox/core';
import {
  dataOf,
  insertMessage,
  mutateData,
  mutateEveryData,
  namedEvent,
  readStreamFixture,
  removeMessage,
  replaceMessage,
  swapMessages,
} from './sse-message-mutations';
import { expectOnlyViolations as expectOnly } from './expect-only-violations';
import { validateMessagesStream } from './validate-messages-stream';

// Wire-shaped synthetic fixtures after the examples of https://docs.anthropic.com/en/api/messages-streaming (see test/__fixtures__/README.md).
// messages-text-tool.1: 0 message_start, 1-5 text block 0 (ping at 2), 6-9 tool_use block 1, 10 message_delta, 11 message_stop.
const textTool = readStreamFixture('messages-text-tool.1');

function withStopReason(stopReason: string): typeof textTool {
  return mutateData(textTool, 10, data => {
    data.delta = { stop_reason: stopReason, stop_sequence: null };
  });
}

function mutateDelta(index: number, delta: JSONObject): typeof textTool {
  return mutateData(textTool, index, data => {
    data.delta = delta;
  });
}

describe('validateMessagesStream: valid streams', () => {
  it('accepts a text block followed by a tool_use block', () => {
    const verdict = validateMessagesStream(textTool);
    expect(verdict).toMatchObject({ violations: [], outcome: 'completed', text: 'Hello world' });
    expect(verdict.events).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('accepts a thinking block with its signature, then text', () => {
    expect(validateMessagesStream(readStreamFixture('messages-thinking-text.1'))).toMatchObject({
      violations: [],
      outcome: 'completed',
      text: 'Hi',
    });
  });

  it('accepts a mid-stream error event as an error outcome', () => {
    expect(validateMessagesStream(readStreamFixture('messages-error.2'))).toMatchObject({
      violations: [],
      outcome: 'error',
      text: 'Hel',
    });
  });

  it('judges max_tokens as incomplete', () => {
    expect(validateMessagesStream(withStopReason('max_tokens'))).toMatchObject({
      violations: [],
      outcome: 'incomplete',
    });
  });
});

describe('validateMessagesStream: framing and order', () => {
  it('flags a frame without an event: line', () => {
    expectOnly(
      validateMessagesStream(replaceMessage(textTool, 3, { data: textTool[3]?.data ?? '' })),
      'event #3 (content_block_delta): missing event: line',
    );
  });

  it('flags an event: line that differs from data.type', () => {
    const messages = replaceMessage(textTool, 3, {
      event: 'content_block_start',
      data: textTool[3]?.data ?? '',
    });
    expectOnly(
      validateMessagesStream(messages),
      'event #3 (content_block_delta): event: line "content_block_start" does not match',
    );
  });

  it('flags a stream that does not start with message_start', () => {
    expectOnly(
      validateMessagesStream([namedEvent({ type: 'ping' }), ...textTool]),
      'event #0 (ping): the first event must be message_start, got ping',
    );
    expectOnly(
      validateMessagesStream(removeMessage(textTool, 0)),
      'event #0 (content_block_start): the first event must be message_start',
    );
  });

  it('flags a second message_start', () => {
    const messages = insertMessage(textTool, 6, textTool[0] ?? { data: '' });
    expectOnly(validateMessagesStream(messages), 'event #6 (message_start): second message_start');
  });

  it('flags a message_start whose message is not a fresh assistant message', () => {
    const messages = mutateData(textTool, 0, data => {
      data.message = {
        ...(data.message as JSONObject),
        stop_reason: 'end_turn',
        content: [{ type: 'text', text: 'x' }],
      };
    });
    expectOnly(
      validateMessagesStream(messages),
      'event #0 (message_start): message.content must be []',
      'event #0 (message_start): message.stop_reason must be null',
    );
  });

  it('flags unknown event names', () => {
    const messages = insertMessage(textTool, 3, namedEvent({ type: 'content_block_pause', index: 0 }));
    expectOnly(
      validateMessagesStream(messages),
      'event #3 (content_block_pause): unknown event type "content_block_pause"',
    );
  });
});

describe('validateMessagesStream: content blocks', () => {
  it('flags a block index gap', () => {
    const messages = mutateEveryData(textTool, (data, index) => {
      if (index >= 6 && index <= 9) data.index = 2;
    });
    expectOnly(validateMessagesStream(messages), 'event #6 (content_block_start): block index 2, expected 1');
  });

  it('flags a delta before its content_block_start', () => {
    const verdict = validateMessagesStream(swapMessages(textTool, 6, 7));
    expect(verdict.violations[0]).toContain(
      'event #6 (content_block_delta): content_block_delta for block index 1, which was never started',
    );
  });

  it('flags a delta type that does not fit the block', () => {
    const verdict = validateMessagesStream(mutateDelta(3, { type: 'input_json_delta', partial_json: '{}' }));
    expectOnly(verdict, 'event #3 (content_block_delta): input_json_delta on a text block (index 0)');
    expect(verdict.text).toBe(' world');
  });

  it('flags a text_delta on a tool_use block', () => {
    const verdict = validateMessagesStream(mutateDelta(7, { type: 'text_delta', text: 'x' }));
    expect(verdict.violations[0]).toContain(
      'event #7 (content_block_delta): text_delta on a tool_use block (index 1)',
    );
    expect(verdict.text).toBe('Hello world');
  });

  it('flags two blocks open at once', () => {
    expectOnly(
      validateMessagesStream(removeMessage(textTool, 5)),
      'event #5 (content_block_start): block 0 is still open',
      'event #9 (message_delta): message_delta while block 0 was never stopped',
    );
  });

  it('flags a block stopped twice', () => {
    expectOnly(
      validateMessagesStream(insertMessage(textTool, 6, textTool[5] ?? { data: '' })),
      'event #6 (content_block_stop): content_block_stop for block 0, which is already stopped',
    );
  });

  it('flags tool input JSON that does not parse to an object', () => {
    expectOnly(
      validateMessagesStream(mutateDelta(8, { type: 'input_json_delta', partial_json: 'lo"' })),
      'event #9 (content_block_stop): partial_json of block 1 does not form a JSON object',
    );
  });

  it('flags a thinking_delta after the signature_delta', () => {
    const thinking = readStreamFixture('messages-thinking-text.1');
    const late = namedEvent({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'thinking_delta', thinking: 'more' },
    });
    expectOnly(
      validateMessagesStream(insertMessage(thinking, 4, late)),
      'event #4 (content_block_delta): thinking_delta after the signature_delta of block 0',
    );
  });
});

describe('validateMessagesStream: message_delta and terminals', () => {
  it('flags message_stop without message_delta', () => {
    const verdict = validateMessagesStream(removeMessage(textTool, 10));
    expectOnly(verdict, 'event #10 (message_stop): message_stop without a preceding message_delta');
    expect(verdict.outcome).toBe('none');
  });

  it('flags a second message_delta', () => {
    expectOnly(
      validateMessagesStream(insertMessage(textTool, 11, textTool[10] ?? { data: '' })),
      'event #11 (message_delta): second message_delta',
    );
  });

  it('flags an unknown stop_reason', () => {
    expectOnly(
      validateMessagesStream(withStopReason('length')),
      'event #10 (message_delta): delta.stop_reason must be a known stop reason, got "length"',
    );
  });

  it('flags a missing usage.output_tokens', () => {
    const messages = mutateData(textTool, 10, data => {
      data.usage = { input_tokens: 3 };
    });
    expectOnly(
      validateMessagesStream(messages),
      'event #10 (message_delta): usage.output_tokens must be an integer',
    );
  });

  it('flags end_turn after a tool_use block', () => {
    expectOnly(
      validateMessagesStream(withStopReason('end_turn')),
      'event #10 (message_delta): tool_use block(s) streamed but stop_reason is "end_turn"',
    );
  });

  it('flags an event after message_stop', () => {
    expectOnly(
      validateMessagesStream([...textTool, namedEvent({ type: 'ping' })]),
      'event #12 (ping): event after the terminal message_stop',
    );
  });

  it('flags a stream without message_stop', () => {
    const verdict = validateMessagesStream(textTool.slice(0, 11));
    expectOnly(verdict, 'event #11 (end of stream): stream ended without message_stop or error');
    expect(verdict.outcome).toBe('none');
  });

  it('flags anything after an error event, and a malformed error', () => {
    const errored = readStreamFixture('messages-error.2');
    const malformed = mutateData(errored, 3, data => {
      data.error = { message: 'Overloaded' };
    });
    expectOnly(
      validateMessagesStream([...errored, textTool[11] ?? { data: '' }]),
      'event #4 (message_stop): event after the terminal error',
    );
    expectOnly(validateMessagesStream(malformed), 'event #3 (error): error must be {type, message}');
    expect(dataOf(errored[3]).type).toBe('error');
  });
});
