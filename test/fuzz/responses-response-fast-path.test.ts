import fc from 'fast-check';
import { decodeOpenAIResponsesResponse } from '../../packages/codec-openai-responses/src/response/decode-openai-responses-response';
import {
  messageOutputItemSchema,
  openAIResponsesResponseSchema,
} from '../../packages/codec-openai-responses/src/response/openai-responses-response-schema';
import type * as ResponsesFastPath from '../../packages/codec-openai-responses/src/response/read-common-responses-response';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { field, nested, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof ResponsesFastPath>(
  '../../packages/codec-openai-responses/src/response/read-common-responses-response',
);

// The decoder's fast paths, switchable off so the same decoder runs on the schemas alone.
jest.mock('../../packages/codec-openai-responses/src/response/read-common-responses-response', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-openai-responses/src/response/read-common-responses-response'),
);

const RUNS = fuzzRuns({ answers: 500, items: 500, decoded: 200 });

const optionalText = field(fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)));
const part = objectAround(
  { type: field(fc.constantFrom('output_text', 'refusal')), text: optionalText, refusal: optionalText, annotations: rarely([]) },
  ['type'],
);
const messageItem = objectAround(
  { type: fc.constant('message'), id: fc.constant('msg_1'), role: fc.constant('assistant'), content: nested(fc.array(nested(part), { maxLength: 3 })) },
  ['type'],
);
const otherItem = fc.constantFrom(
  { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
  { type: 'function_call', name: 'f' },
  { type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] },
  { type: 'web_search_call', id: 'ws_1' },
);
const item = fc.oneof({ arbitrary: messageItem, weight: 4 }, { arbitrary: otherItem, weight: 1 }, { arbitrary: fc.constant({ type: 3 }), weight: 1 });

/** Responses around the common one (message items, a status, usage), well and badly formed. */
const answer = objectAround(
  {
    id: field(fc.constant('resp_1')),
    object: fc.constant('response'),
    model: optionalText,
    status: field(fc.constantFrom('completed', 'incomplete', 'failed')),
    output: field(fc.array(item, { maxLength: 3 })),
    error: rarely(null, { message: 'boom', code: 'server_error' }, { code: 5 }),
    incomplete_details: rarely(null, { reason: 'max_output_tokens' }, { reason: 1 }),
    usage: rarely(null, { input_tokens: 5, output_tokens: 2 }, 'odd'),
  },
  ['id', 'output'],
).map(throughJSON);

describe('fuzz: the Responses answer fast path', () => {
  it('takes only Responses the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(answer, actual.readCommonResponsesResponse, openAIResponsesResponseSchema, RUNS.answers));

  it('takes only message items the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(messageItem.map(throughJSON), actual.readCommonMessageItem, messageOutputItemSchema, RUNS.items));

  it('decodes any Response to what the schemas alone give', () =>
    checkSameDecoding(answer, decodeOpenAIResponsesResponse, RUNS.decoded));
});
