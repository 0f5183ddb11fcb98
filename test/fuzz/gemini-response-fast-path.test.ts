import fc from 'fast-check';
import { geminiResponseSchema } from '../../packages/codec-google-gemini/src/gemini-api';
import { decodeGeminiResponse } from '../../packages/codec-google-gemini/src/response/decode-gemini-response';
import { createGeminiStreamDecoder } from '../../packages/codec-google-gemini/src/stream/decode-gemini-stream';
import type * as GeminiFastPath from '../../packages/codec-google-gemini/src/read-common-gemini-response';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding, plainEvent } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { count, counters, field, nested, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof GeminiFastPath>(
  '../../packages/codec-google-gemini/src/read-common-gemini-response',
);

// The decoders' fast path, switchable off so the same decoders run on the schema alone.
jest.mock('../../packages/codec-google-gemini/src/read-common-gemini-response', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-google-gemini/src/read-common-gemini-response'),
);

const RUNS = fuzzRuns({ answers: 500, streams: 200, whole: 200 });

const text = fc.string({ maxLength: 6 });
const part = objectAround({
  text: field(text),
  thought: field(fc.boolean()),
  thoughtSignature: field(text),
  functionCall: rarely({ name: 'f', args: { a: 1 } }, { args: 1 }),
  inlineData: rarely({ mimeType: 'image/png', data: 'AA==' }, { data: null }),
});
const candidate = objectAround({
  content: nested(objectAround({ role: field(fc.constant('model')), parts: nested(fc.array(nested(part), { maxLength: 3 })) })),
  finishReason: field(fc.constantFrom('STOP', 'MAX_TOKENS', 'SAFETY')),
  finishMessage: field(text),
  index: field(fc.nat({ max: 2 })),
  safetyRatings: fc.constant([]),
});
const usage = counters(['promptTokenCount', 'cachedContentTokenCount', 'candidatesTokenCount', 'thoughtsTokenCount', 'totalTokenCount']);

/** Answers and chunks around the common one (text and thoughts, finish reason, usage), well and badly formed. */
const anyAnswer = objectAround({
  candidates: nested(fc.array(nested(candidate), { maxLength: 2 })),
  usageMetadata: nested(usage),
  modelVersion: field(fc.constant('gemini-2.5-flash')),
  responseId: field(fc.constant('resp-1')),
  promptFeedback: rarely({ blockReason: 'SAFETY' }, { blockReason: 3 }, null),
});

/** The common answer's structure, its leaves mostly right: the case the fast path is for and its near misses. */
const commonAnswer = objectAround({
  candidates: fc.array(
    objectAround({
      content: objectAround({
        role: field(fc.constant('model')),
        parts: fc.array(objectAround({ text: field(text), thought: field(fc.boolean()), thoughtSignature: field(text) }), { maxLength: 3 }),
      }),
      finishReason: field(fc.constant('STOP')),
      index: field(fc.constant(0)),
    }),
    { maxLength: 1 },
  ),
  usageMetadata: objectAround({ promptTokenCount: field(count), candidatesTokenCount: field(count), totalTokenCount: field(count) }),
  modelVersion: field(fc.constant('gemini-2.5-flash')),
  responseId: field(fc.constant('resp-1')),
  promptFeedback: rarely({ blockReason: 'SAFETY' }, { blockReason: 3 }),
});

const answer = fc.oneof(anyAnswer, commonAnswer).map(throughJSON);

function decodeStream(values: readonly unknown[]): unknown[] {
  const decoder = createGeminiStreamDecoder();
  const events = [...values.flatMap(value => decoder.push({ data: JSON.stringify(value) })), ...decoder.end()];
  return events.map(plainEvent);
}

describe('fuzz: the Gemini answer and stream chunk fast path', () => {
  it('takes only answers the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(answer, actual.readCommonGeminiResponse, geminiResponseSchema, RUNS.answers, true));

  it('decodes any stream to the events the schema alone gives', () =>
    checkSameDecoding(fc.array(answer, { maxLength: 8 }), decodeStream, RUNS.streams));

  it('decodes any whole answer to what the schema alone gives', () =>
    checkSameDecoding(answer, decodeGeminiResponse, RUNS.whole));
});
