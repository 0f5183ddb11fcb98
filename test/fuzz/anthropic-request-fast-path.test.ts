import fc from 'fast-check';
import { decodeAnthropicRequest } from '../../packages/codec-anthropic-messages/src/request/decode-anthropic-request';
import type * as AnthropicFastPath from '../../packages/codec-anthropic-messages/src/request/read-common-anthropic-request';
import { anthropicRequestSchema } from '../../packages/codec-anthropic-messages/src/schema/anthropic-request-schema';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { field, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof AnthropicFastPath>(
  '../../packages/codec-anthropic-messages/src/request/read-common-anthropic-request',
);

// The decoder's fast path, switchable off so the same decoder runs on the schema alone.
jest.mock('../../packages/codec-anthropic-messages/src/request/read-common-anthropic-request', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-anthropic-messages/src/request/read-common-anthropic-request'),
);

const RUNS = fuzzRuns({ bodies: 600, decoded: 300 });

const text = fc.string({ maxLength: 6 });
const cacheControl = rarely(null, { type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }, { type: 'ephemeral', ttl: '2h' }, { type: 'persistent' });
const textBlocks = fc.array(
  objectAround({ type: field(fc.constantFrom('text', 'image')), text: field(text), cache_control: cacheControl, citations: rarely(null, [], 'none') }, ['type']),
  { maxLength: 2 },
);
const message = objectAround(
  { role: field(fc.constantFrom('user', 'assistant', 'system', 'tool')), content: field(fc.oneof({ arbitrary: text, weight: 3 }, { arbitrary: textBlocks, weight: 1 })) },
  ['role', 'content'],
);
const commonFields = {
  model: fc.constant('claude-sonnet-4-5'),
  max_tokens: fc.oneof({ arbitrary: fc.constantFrom(1, 1024, 64000), weight: 6 }, { arbitrary: fc.constantFrom(0, 1.5, 2 ** 53), weight: 1 }),
  messages: fc.array(
    fc.oneof(
      { arbitrary: objectAround({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.oneof({ arbitrary: text, weight: 3 }, { arbitrary: textBlocks, weight: 1 }) }, ['role', 'content']), weight: 6 },
      { arbitrary: message, weight: 1 },
    ),
    { minLength: 1, maxLength: 3 },
  ),
  system: fc.oneof(text, textBlocks),
  stream: fc.oneof({ arbitrary: fc.boolean(), weight: 6 }, { arbitrary: fc.constant(null), weight: 1 }),
  cache_control: fc.constantFrom(null, { type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }, { type: 'ephemeral', ttl: '2h' }),
  temperature: fc.constantFrom(0, 0.5, 1, 1.5),
  top_k: fc.constantFrom(0, 40, -1),
  stop_sequences: fc.array(fc.oneof({ arbitrary: text, weight: 6 }, { arbitrary: fc.constantFrom(null, 1), weight: 1 }), { maxLength: 3 }),
  metadata: fc.oneof({ arbitrary: fc.constantFrom({ user_id: 'u_1' }, { user_id: null }, {}), weight: 4 }, { arbitrary: fc.constantFrom({ user_id: 'u_1', plan: 'pro' }, { user_id: 3 }), weight: 1 }),
};

/** The common body (a model, a limit, text turns, a system prompt, a few options) with near misses (a limit of 0, a null stream, an unknown TTL, metadata with another key…). */
const commonBody = objectAround(commonFields, ['model', 'max_tokens', 'messages']);

/** Messages bodies with any of the fields the schema knows, well and badly formed. */
const anyBody = objectAround({
  ...Object.fromEntries(Object.entries(commonFields).map(([name, value]) => [name, field(value)])),
  top_p: field(fc.constantFrom(0, 0.9, 1.1)),
  tools: rarely(null, [], [{ name: 'f', input_schema: { type: 'object' } }]),
  tool_choice: rarely(null, { type: 'auto' }),
  thinking: rarely({ type: 'enabled', budget_tokens: 2048 }, { type: 'adaptive' }),
  output_config: rarely({ effort: 'high' }),
  service_tier: rarely('auto', null),
  container: rarely(null, 'c_1', 5),
  speed: rarely(null, 'fast', 'slow'),
  context_management: rarely(null, {}),
  fallbacks: rarely(null, 'default'),
  some_new_field: rarely(1, 'x'),
});

const body = fc.oneof({ arbitrary: anyBody, weight: 1 }, { arbitrary: commonBody, weight: 2 }).map(throughJSON);

describe('fuzz: the Messages request fast path', () => {
  it('takes only bodies the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(body, actual.readCommonAnthropicRequest, anthropicRequestSchema, RUNS.bodies));

  it('decodes any body to the request (or the refusal) the schema alone gives', () =>
    checkSameDecoding(body, decodeAnthropicRequest, RUNS.decoded));
});
