import fc from 'fast-check';
import { decodeOpenAIChatRequest } from '../../packages/codec-openai-chat/src/request/decode-openai-chat-request';
import { openAIChatRequestSchema } from '../../packages/codec-openai-chat/src/request/openai-chat-request-schema';
import type * as ChatFastPath from '../../packages/codec-openai-chat/src/request/read-common-chat-request';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { field, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof ChatFastPath>('../../packages/codec-openai-chat/src/request/read-common-chat-request');

// The decoder's fast path, switchable off so the same decoder runs on the schema alone.
jest.mock('../../packages/codec-openai-chat/src/request/read-common-chat-request', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-openai-chat/src/request/read-common-chat-request'),
);

const RUNS = fuzzRuns({ bodies: 600, decoded: 300 });

const text = fc.string({ maxLength: 6 });
const nullable = (right: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => field(fc.oneof({ arbitrary: right, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }));
const textParts = fc.array(objectAround({ type: field(fc.constantFrom('text', 'image_url')), text: field(text) }, ['type']), { maxLength: 2 });
const message = objectAround(
  {
    role: field(fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool', 'function')),
    content: field(fc.oneof({ arbitrary: text, weight: 3 }, { arbitrary: textParts, weight: 1 })),
    name: rarely('ann', null, 3),
    refusal: rarely(null, 'no', 4),
    tool_calls: rarely([{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }], []),
    tool_call_id: rarely('call_1'),
    audio: rarely(null, { id: 'a' }),
  },
  ['role', 'content'],
);
const count = fc.constantFrom(0, 1, 64, 4096, -1, 1.5, 2 ** 53);

/** Chat bodies with any of the fields the schema knows, well and badly formed. */
const anyBody = objectAround(
  {
    model: field(fc.constantFrom('gpt-4.1', '')),
    messages: field(fc.array(message, { minLength: 0, maxLength: 3 })),
    max_tokens: nullable(count),
    max_completion_tokens: nullable(count),
    n: nullable(count),
    seed: nullable(count),
    top_logprobs: nullable(fc.constantFrom(0, 5, 20, 21, -1)),
    temperature: nullable(fc.constantFrom(0, 0.2, 1, 2, 2.5, -0.1)),
    top_p: nullable(fc.constantFrom(0, 0.9, 1, 1.1)),
    presence_penalty: nullable(fc.constantFrom(-2, 0, 1.5, 2.1)),
    frequency_penalty: nullable(fc.constantFrom(-2.1, 0, 2)),
    stream: nullable(fc.boolean()),
    stream_options: nullable(objectAround({ include_usage: field(fc.boolean()), include_obfuscation: field(fc.boolean()) })),
    stop: nullable(fc.oneof(text, fc.array(text, { maxLength: 5 }))),
    parallel_tool_calls: nullable(fc.boolean()),
    logprobs: nullable(fc.boolean()),
    store: nullable(fc.boolean()),
    user: field(text),
    safety_identifier: nullable(text),
    service_tier: nullable(fc.constant('auto')),
    prompt_cache_key: nullable(text),
    prompt_cache_retention: nullable(fc.constant('24h')),
    reasoning_effort: nullable(fc.constantFrom('low', 'high', 'max', 'extreme')),
    verbosity: nullable(fc.constantFrom('low', 'medium', 'loud')),
    tools: rarely(null, [], [{ type: 'function', function: { name: 'f' } }]),
    tool_choice: rarely(null, 'auto'),
    response_format: rarely(null, { type: 'text' }),
    metadata: rarely(null, { a: 'b' }, { a: 1 }),
    logit_bias: rarely(null, { '1': 2 }),
    prompt_cache_options: rarely(null, { mode: 'implicit' }),
    some_new_field: rarely(1, 'x'),
  },
  ['model', 'messages'],
);

/** The common body (a model, text turns, a few scalar options), with near misses (a zero limit, a temperature above 2, an unknown effort, five stop sequences or one not a string, image parts). */
const commonBody = objectAround(
  {
    model: fc.constant('gpt-4.1'),
    messages: fc.array(
      objectAround({ role: fc.constantFrom('system', 'user', 'assistant'), content: fc.oneof(text, textParts), name: rarely('ann', null) }, ['role', 'content']),
      { minLength: 1, maxLength: 3 },
    ),
    max_tokens: fc.constantFrom(1, 64, 4096, 0),
    temperature: fc.constantFrom(0, 0.7, 2, 3),
    stream: fc.boolean(),
    stream_options: fc.constant({ include_usage: true }),
    user: text,
    stop: fc.array(fc.oneof({ arbitrary: text, weight: 6 }, { arbitrary: fc.constantFrom(null, 1, true), weight: 1 }), { maxLength: 5 }),
    reasoning_effort: fc.constantFrom('low', 'high', 'extreme'),
  },
  ['model', 'messages'],
);

/** Chat bodies around the common one, well and badly formed. */
const body = fc.oneof({ arbitrary: anyBody, weight: 1 }, { arbitrary: commonBody, weight: 2 }).map(throughJSON);

describe('fuzz: the Chat Completions request fast path', () => {
  it('takes only bodies the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(body, actual.readCommonChatRequest, openAIChatRequestSchema, RUNS.bodies));

  it('decodes any body to the request (or the refusal) the schema alone gives', () =>
    checkSameDecoding(body, decodeOpenAIChatRequest, RUNS.decoded));
});
