import fc from 'fast-check';
import { decodeAnthropicResponse } from '../../packages/codec-anthropic-messages/src/response/decode-anthropic-response';
import type * as AnthropicFastPath from '../../packages/codec-anthropic-messages/src/response/read-common-anthropic-response';
import { anthropicOutputBlockSchema, anthropicResponseSchema } from '../../packages/codec-anthropic-messages/src/schema/anthropic-response-schema';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { counters, field, nested, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof AnthropicFastPath>(
  '../../packages/codec-anthropic-messages/src/response/read-common-anthropic-response',
);

// The decoder's fast paths, switchable off so the same decoder runs on the schemas alone.
jest.mock('../../packages/codec-anthropic-messages/src/response/read-common-anthropic-response', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-anthropic-messages/src/response/read-common-anthropic-response'),
);

const RUNS = fuzzRuns({ answers: 500, blocks: 500, decoded: 200 });

const text = fc.string({ maxLength: 6 });
const optionalText = field(fc.oneof(text, fc.constant(null)));
const block = objectAround({
  type: field(fc.constantFrom('text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use')),
  text: field(text),
  thinking: field(text),
  signature: optionalText,
  data: field(text),
  id: field(fc.constant('toolu_1')),
  name: field(fc.constant('f')),
  input: field(fc.constant({ a: 1 })),
  citations: rarely(null, []),
});
const usage = objectAround({
  input_tokens: field(fc.nat({ max: 99 })),
  output_tokens: field(fc.nat({ max: 99 })),
  cache_creation_input_tokens: field(fc.oneof(fc.nat({ max: 99 }), fc.constant(null))),
  cache_read_input_tokens: field(fc.oneof(fc.nat({ max: 99 }), fc.constant(null))),
  cache_creation: nested(counters(['ephemeral_5m_input_tokens', 'ephemeral_1h_input_tokens'])),
  output_tokens_details: nested(counters(['thinking_tokens'])),
  service_tier: rarely('standard'),
});

/** Messages around the common one (text and thinking blocks, stop reason, usage), well and badly formed. */
const answer = objectAround({
  id: field(fc.constant('msg_1')),
  type: field(fc.constant('message')),
  role: fc.constant('assistant'),
  model: optionalText,
  content: field(fc.array(nested(block), { maxLength: 3 })),
  stop_reason: field(fc.constantFrom('end_turn', 'max_tokens', 'tool_use')),
  stop_sequence: optionalText,
  usage: nested(usage),
}, ['id', 'content']).map(throughJSON);

describe('fuzz: the Anthropic answer fast path', () => {
  it('takes only Messages the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(answer, actual.readCommonAnthropicResponse, anthropicResponseSchema, RUNS.answers));

  it('takes only output blocks the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(block.map(throughJSON), actual.readCommonAnthropicOutputBlock, anthropicOutputBlockSchema, RUNS.blocks));

  it('decodes any answer to what the schemas alone give', () =>
    checkSameDecoding(answer, decodeAnthropicResponse, RUNS.decoded));
});
