import type { StreamEvent } from '@signalbox/core';
import { comparableEvents } from '@signalbox/core/testing';
import { encodeEvents, fullUsage, overloaded } from '../testing/stream-test-helpers';
import { createAnthropicStreamDecoder } from './decode-anthropic-stream';

/**
 * Block ids are stream-local: rename them by order of first appearance; drop the minted response
 * id. An error is compared by its code: decoding re-reads it from the wire, with the upstream's words.
 */
function normalise(events: readonly StreamEvent[]) {
  const ids = new Map<string, string>();
  return comparableEvents(events, ['code']).map(event => {
    if (event.type === 'response-start') return { type: event.type, usage: event.usage };
    if (!('id' in event)) return event;
    if (!ids.has(event.id)) ids.set(event.id, `block-${ids.size}`);
    return { ...event, id: ids.get(event.id)! };
  });
}

function roundTrip(events: readonly StreamEvent[]): StreamEvent[] {
  const decoder = createAnthropicStreamDecoder();
  return [...encodeEvents(events).flatMap(message => decoder.push(message)), ...decoder.end()];
}

const startUsage = fullUsage({ outputTokens: 1, reasoningTokens: undefined });
const usage = fullUsage({ reasoningTokens: 5 });

const SEQUENCES: Array<[string, StreamEvent[]]> = [
  [
    'text',
    [
      { type: 'response-start', id: 'r', model: 'm', usage: startUsage },
      { type: 'text-start', id: 'x' },
      { type: 'text-delta', id: 'x', delta: 'Grüße ' },
      { type: 'text-delta', id: 'x', delta: '🌍' },
      { type: 'text-end', id: 'x' },
      { type: 'response-end', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
    ],
  ],
  [
    'signed reasoning, redacted reasoning and parallel tool calls',
    [
      { type: 'response-start', id: 'r', model: 'm', usage: startUsage },
      { type: 'reasoning-start', id: 'think' },
      { type: 'reasoning-delta', id: 'think', delta: 'Plan.' },
      { type: 'reasoning-end', id: 'think', signature: 'sig' },
      { type: 'reasoning-start', id: 'hidden', redactedData: 'opaque' },
      { type: 'reasoning-end', id: 'hidden' },
      { type: 'tool-call-start', id: 'a', callId: 'toolu_a', toolName: 'f' },
      { type: 'tool-call-delta', id: 'a', argumentsDelta: '{"x":' },
      { type: 'tool-call-delta', id: 'a', argumentsDelta: '1}' },
      { type: 'tool-call-end', id: 'a' },
      { type: 'tool-call-start', id: 'b', callId: 'toolu_b', toolName: 'g' },
      { type: 'tool-call-delta', id: 'b', argumentsDelta: '{}' },
      { type: 'tool-call-end', id: 'b' },
      { type: 'response-end', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
    ],
  ],
  [
    'truncation',
    [
      { type: 'response-start', id: 'r', model: 'm', usage: startUsage },
      { type: 'text-start', id: 'x' },
      { type: 'text-delta', id: 'x', delta: 'Once upon' },
      { type: 'text-end', id: 'x' },
      { type: 'response-end', finishReason: { unified: 'length', raw: 'max_tokens' }, usage },
    ],
  ],
  [
    'error mid-stream',
    [
      { type: 'response-start', id: 'r', model: 'm', usage: startUsage },
      { type: 'text-start', id: 'x' },
      { type: 'text-delta', id: 'x', delta: 'Once' },
      { type: 'error', error: overloaded() },
    ],
  ],
];

describe('decode(encode(events))', () => {
  it.each(SEQUENCES)('round-trips %s', (_name, events) => {
    expect(normalise(roundTrip(events))).toEqual(normalise(events));
  });
});
