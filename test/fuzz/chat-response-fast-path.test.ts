import fc from 'fast-check';
import { openAIChatResponseSchema } from '../../packages/codec-openai-chat/src/openai-chat-api';
import { decodeOpenAIChatResponse } from '../../packages/codec-openai-chat/src/response/decode-openai-chat-response';
import type * as ChatFastPath from '../../packages/codec-openai-chat/src/response/read-common-chat-response';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { chatUsage } from './chat-usage-arbitrary';
import { field, nested, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof ChatFastPath>('../../packages/codec-openai-chat/src/response/read-common-chat-response');

// The decoder's fast path, switchable off so the same decoder runs on the schema alone.
jest.mock('../../packages/codec-openai-chat/src/response/read-common-chat-response', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-openai-chat/src/response/read-common-chat-response'),
);

const RUNS = fuzzRuns({ answers: 500, decoded: 200 });

const optionalText = field(fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)));
const message = objectAround({
  role: fc.constant('assistant'),
  content: optionalText,
  reasoning_content: optionalText,
  reasoning: optionalText,
  refusal: optionalText,
  tool_calls: rarely(null, [], [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }], [{ id: 3 }]),
  annotations: rarely([]),
});
const choice = objectAround(
  { index: field(fc.oneof(fc.nat({ max: 2 }), fc.constant(null))), message: nested(message), finish_reason: optionalText, logprobs: rarely(null) },
  ['message'],
);

/** Chat answers around the common one (text, reasoning or a refusal, usage), well and badly formed. */
const answer = objectAround(
  {
    id: optionalText,
    object: fc.constant('chat.completion'),
    model: optionalText,
    choices: field(fc.array(nested(choice), { maxLength: 2 })),
    usage: nested(chatUsage),
    system_fingerprint: rarely('fp_1'),
  },
  ['choices'],
).map(throughJSON);

// Calls without an id get a random one: compare whether one was made, not its value.
function decode(value: unknown): unknown {
  const response = decodeOpenAIChatResponse(value);
  return { ...response, content: response.content.map(part => (part.type === 'tool-call' ? { ...part, callId: typeof part.callId } : part)) };
}

describe('fuzz: the Chat Completions answer fast path', () => {
  it('takes only answers the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(answer, actual.readCommonChatResponse, openAIChatResponseSchema, RUNS.answers));

  it('decodes any answer to what the schema alone gives', () =>
    checkSameDecoding(answer, decode, RUNS.decoded));
});
