import fc from 'fast-check';
import { decodeOpenAIResponsesRequest } from '../../packages/codec-openai-responses/src/request/decode-openai-responses-request';
import { openAIResponsesRequestSchema } from '../../packages/codec-openai-responses/src/request/openai-responses-request-schema';
import type * as ResponsesFastPath from '../../packages/codec-openai-responses/src/request/read-common-responses-request';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { field, near, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof ResponsesFastPath>(
  '../../packages/codec-openai-responses/src/request/read-common-responses-request',
);

// The decoder's fast path, switchable off so the same decoder runs on the schema alone.
jest.mock('../../packages/codec-openai-responses/src/request/read-common-responses-request', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-openai-responses/src/request/read-common-responses-request'),
);

const RUNS = fuzzRuns({ bodies: 600, decoded: 300 });

const text = fc.string({ maxLength: 6 });
const input = fc.oneof(
  text,
  fc.constant([{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }]),
  fc.constant([{ role: 'user', content: 'hi' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] }]),
  fc.constant([{ role: 'robot', content: 'hi' }]),
);
const commonFields = {
  model: near(fc.constant('gpt-5'), ''),
  input: near(input, null, 5, {}),
  instructions: near(text, 5),
  stream: near(fc.boolean(), 'yes'),
  store: near(fc.boolean(), null, 0),
  max_output_tokens: near(fc.constantFrom(16, 1024, null), 15, 1.5, 2 ** 53),
  temperature: near(fc.constantFrom(0, 1, 2), 2.5),
  reasoning: near(objectAround({ effort: near(fc.constantFrom('low', 'high', null), 'extreme'), summary: near(fc.constant('auto'), 'long') }), 'high'),
  text: near(fc.constantFrom({ format: { type: 'text' } }, { verbosity: 'low' }, { format: null }), { format: { type: 'xml' } }, { verbosity: 'loud' }),
  tools: near(fc.constantFrom([], [{ type: 'function', name: 'f', parameters: { type: 'object' } }]), {}, 'all'),
  tool_choice: fc.constantFrom('auto', null, { type: 'function', name: 'f' }),
  include: near(fc.constant(['reasoning.encrypted_content']), [1], 'all'),
  prompt_cache_key: near(text, 1),
  client_metadata: near(fc.constant({ session: 's_1' }), [], 'x'),
  truncation: near(fc.constantFrom('auto', 'disabled'), 'sometimes'),
  stream_options: near(fc.constant({ include_obfuscation: false }), { include_obfuscation: 'no' }),
};

/** The common body (what SDKs and Codex send) with near misses. */
const commonBody = objectAround(commonFields, ['model', 'input']);

/** Responses bodies with any of the fields the schema knows, well and badly formed. */
const anyBody = objectAround({
  ...Object.fromEntries(Object.entries(commonFields).map(([name, value]) => [name, field(value)])),
  top_p: field(fc.constantFrom(0, 0.9, 1.1)),
  top_logprobs: field(fc.constantFrom(0, 20, 21)),
  max_tool_calls: field(fc.constantFrom(1, 0)),
  metadata: rarely(null, { a: 'b' }, { a: 1 }),
  text: rarely({ format: { type: 'json_schema', name: 'x', schema: {} } }),
  previous_response_id: rarely('resp_1'),
  some_new_field: rarely(1, 'x'),
});

const body = fc.oneof({ arbitrary: anyBody, weight: 1 }, { arbitrary: commonBody, weight: 2 }).map(throughJSON);

describe('fuzz: the Responses request fast path', () => {
  it('takes only bodies the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(body, actual.readCommonResponsesRequest, openAIResponsesRequestSchema, RUNS.bodies));

  it('decodes any body to the request (or the refusal) the schema alone gives', () =>
    checkSameDecoding(body, decodeOpenAIResponsesRequest, RUNS.decoded));
});
