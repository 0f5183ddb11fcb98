import fc from 'fast-check';
import { openAIChatChunkSchema } from '../../packages/codec-openai-chat/src/openai-chat-api';
import { createOpenAIChatStreamDecoder } from '../../packages/codec-openai-chat/src/stream/decode-openai-chat-stream';
import type * as ChatStreamFastPath from '../../packages/codec-openai-chat/src/stream/read-common-chat-chunk';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding, plainEvent } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { chatUsage } from './chat-usage-arbitrary';
import { field, nested, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof ChatStreamFastPath>('../../packages/codec-openai-chat/src/stream/read-common-chat-chunk');

// The decoder's fast path, switchable off so the same decoder runs on the schema alone.
jest.mock('../../packages/codec-openai-chat/src/stream/read-common-chat-chunk', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-openai-chat/src/stream/read-common-chat-chunk'),
);

const RUNS = fuzzRuns({ chunks: 1000, streams: 200 });

const optionalText = field(fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)));
// Calls carry an id, so both runs of the decoder name them alike (a missing one is minted at random).
const delta = objectAround({
  role: fc.constant('assistant'),
  content: optionalText,
  reasoning_content: optionalText,
  reasoning: optionalText,
  refusal: optionalText,
  tool_calls: rarely(null, [], [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{' } }], [{ index: 'x' }]),
});
const choice = objectAround({
  index: field(fc.oneof(fc.nat({ max: 1 }), fc.constant(null))),
  delta: nested(delta),
  finish_reason: field(fc.oneof(fc.constantFrom('stop', 'length', 'tool_calls'), fc.constant(null))),
  logprobs: rarely(null),
});

/** Chunks around the frequent ones (a delta, a finish reason, the last one with usage), well and badly formed. */
const chunk = objectAround({
  id: optionalText,
  object: fc.constant('chat.completion.chunk'),
  model: optionalText,
  choices: field(fc.array(nested(choice), { maxLength: 2 })),
  usage: fc.oneof(fc.constant(undefined), fc.constant(null), nested(chatUsage)),
  system_fingerprint: rarely('fp_1'),
}).map(throughJSON);

/**
 * The schema's reading of what the fast path returns: the chunk itself (unknown fields and all) or
 * a copy with its usage read, either of which the schema must read as it reads the wire's chunk.
 */
function readThroughSchema(value: unknown): unknown {
  const fast = actual.readCommonChatChunk(value);
  return fast === undefined ? undefined : openAIChatChunkSchema.parse(fast);
}

/** The decoder's events for the chunks, with or without `[DONE]`, errors reduced to code and message. */
function decode([chunks, done]: [unknown[], boolean]): unknown[] {
  const decoder = createOpenAIChatStreamDecoder();
  const messages = chunks.map(value => ({ data: JSON.stringify(value) }));
  if (done) messages.push({ data: '[DONE]' });
  return [...messages.flatMap(message => decoder.push(message)), ...decoder.end()].map(plainEvent);
}

describe('fuzz: the Chat Completions stream decoder fast path', () => {
  it('takes only chunks the schema takes, and the schema reads its chunk as the wire one', () =>
    checkFastPathAgainstSchema(chunk, readThroughSchema, openAIChatChunkSchema, RUNS.chunks));

  it('decodes any stream to the events the schema alone gives', () =>
    checkSameDecoding(fc.tuple(fc.array(chunk, { maxLength: 10 }), fc.boolean()), decode, RUNS.streams));
});
