import fc from 'fast-check';
import type { SSEMessage } from '@signalbox/core';
import { createAnthropicStreamDecoder } from '../../packages/codec-anthropic-messages/src/stream/decode-anthropic-stream';
import { anthropicStreamEventSchema } from '../../packages/codec-anthropic-messages/src/schema/anthropic-stream-event-schema';
import type * as AnthropicFastPath from '../../packages/codec-anthropic-messages/src/stream/read-common-anthropic-event';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding, plainEvent } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { counters, field, nested, objectAround, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof AnthropicFastPath>(
  '../../packages/codec-anthropic-messages/src/stream/read-common-anthropic-event',
);

// The decoder's fast path, switchable off so the same decoder runs on the schema alone.
jest.mock('../../packages/codec-anthropic-messages/src/stream/read-common-anthropic-event', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-anthropic-messages/src/stream/read-common-anthropic-event'),
);

const RUNS = fuzzRuns({ events: 1000, streams: 200 });

const index = field(fc.oneof(fc.nat({ max: 3 }), fc.constantFrom(-1, 1.5, 2 ** 53)));
const optionalText = field(fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)));
const delta = objectAround({
  type: field(fc.constantFrom('text_delta', 'thinking_delta', 'input_json_delta', 'signature_delta', 'citations_delta')),
  text: optionalText,
  thinking: optionalText,
  partial_json: optionalText,
  signature: optionalText,
  citation: fc.constant({ type: 'char_location' }),
});
const usage = objectAround({
  input_tokens: field(fc.nat({ max: 99 })),
  output_tokens: field(fc.nat({ max: 99 })),
  cache_creation_input_tokens: field(fc.nat({ max: 99 })),
  cache_read_input_tokens: field(fc.nat({ max: 99 })),
  cache_creation: nested(counters(['ephemeral_5m_input_tokens', 'ephemeral_1h_input_tokens'])),
  output_tokens_details: nested(counters(['thinking_tokens'])),
  server_tool_use: fc.constant({ web_search_requests: 0 }),
});

/** Events around the frequent ones (and some the fast path leaves alone), well and badly formed. */
const event = objectAround({
  type: fc.constantFrom('content_block_delta', 'content_block_stop', 'ping', 'message_delta', 'message_stop', 'content_block_start', 'citations'),
  index,
  delta: nested(fc.oneof(delta, objectAround({ stop_reason: optionalText, stop_sequence: optionalText, stop_details: fc.constant(null) }))),
  usage: nested(usage),
  content_block: fc.constantFrom({ type: 'text', text: '' }, { type: 'thinking', thinking: '' }),
}).map(throughJSON);

/** Blocks 0 (text), 1 (thinking) and 2 (tool call) open, so deltas of every kind land on a block. */
const OPENING: SSEMessage[] = [
  { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 3 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_start', index: 1, content_block: { type: 'thinking', thinking: '' } },
  { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } },
].map(data => ({ event: data.type, data: JSON.stringify(data) }));

/** The decoder's events for `messages`, errors reduced to their code and message. */
function decode(messages: readonly SSEMessage[]): unknown[] {
  const decoder = createAnthropicStreamDecoder();
  return [...messages.flatMap(message => decoder.push(message)), ...decoder.end()].map(plainEvent);
}

describe('fuzz: the Anthropic stream decoder fast path', () => {
  it('takes only events the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(event, actual.readCommonAnthropicEvent, anthropicStreamEventSchema, RUNS.events));

  it('decodes any stream to the events the schema alone gives', () =>
    checkSameDecoding(fc.array(event, { maxLength: 12 }), values => decode([...OPENING, ...values.map(value => ({ data: JSON.stringify(value) }))]), RUNS.streams));
});
