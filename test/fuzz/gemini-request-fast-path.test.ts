import fc from 'fast-check';
import { decodeGeminiRequest } from '../../packages/codec-google-gemini/src/request/decode-gemini-request';
import { geminiRequestSchema } from '../../packages/codec-google-gemini/src/request/gemini-request-schema';
import type * as GeminiFastPath from '../../packages/codec-google-gemini/src/request/read-common-gemini-request';
import type * as FastPathProperties from './fast-path-properties';
import { checkFastPathAgainstSchema, checkSameDecoding } from './fast-path-properties';
import { fuzzRuns } from './fuzz-runs';
import { near, objectAround, rarely, throughJSON } from './wire-shape-arbitraries';

const actual = jest.requireActual<typeof GeminiFastPath>('../../packages/codec-google-gemini/src/request/read-common-gemini-request');

// The decoder's fast path, switchable off so the same decoder runs on the schema alone.
jest.mock('../../packages/codec-google-gemini/src/request/read-common-gemini-request', () =>
  jest.requireActual<typeof FastPathProperties>('./fast-path-properties').switchableModule('../../packages/codec-google-gemini/src/request/read-common-gemini-request'),
);

const RUNS = fuzzRuns({ bodies: 600, decoded: 300 });

const text = fc.string({ maxLength: 6 });
const part = near(
  objectAround({ text, thought: fc.boolean(), thoughtSignature: text }),
  { text: 1 },
  { thought: 'yes' },
  { functionCall: { name: 'f', args: {} } },
  { inlineData: { mimeType: 'image/png', data: 'AA==' } },
  { inlineData: { data: 'AA==' } },
);
const content = near(objectAround({ role: near(fc.constantFrom('user', 'model'), 3), parts: fc.array(part, { maxLength: 2 }) }), null, { parts: {} });
const config = objectAround({
  maxOutputTokens: near(fc.constantFrom(1, 1024), 0, 1.5),
  temperature: near(fc.constantFrom(0, 0.7, 2), -1),
  topP: near(fc.constantFrom(0, 1), 1.5),
  topK: near(fc.constantFrom(1, 40), 0.5),
  candidateCount: near(fc.constant(1), 0),
  responseMimeType: near(fc.constant('text/plain'), 5),
  thinkingConfig: near(objectAround({ includeThoughts: fc.boolean(), thinkingBudget: fc.constantFrom(0, 1024, -1), thinkingLevel: fc.constant('low') }), { includeThoughts: 'yes' }, { thinkingBudget: 1.5 }),
  seed: fc.constant(7),
  stopSequences: rarely(['x'], [1]),
  responseSchema: rarely({ type: 'OBJECT' }),
});

/** Gemini bodies around the common one (text contents, a system instruction, plain settings), with near misses; fields the strict schema refuses only now and then. */
const body = fc
  .record(
  {
    model: near(fc.constant('models/gemini-2.5-flash'), 5),
    contents: near(fc.array(content, { maxLength: 3 }), {}),
    systemInstruction: content,
    generationConfig: near(config, []),
    tools: rarely([{ functionDeclarations: [{ name: 'f' }] }], [{ googleSearch: {} }]),
    safetySettings: rarely([]),
    cachedContent: rarely('cachedContents/1', 1),
    labels: rarely({ a: 'b' }),
    some_new_field: rarely(1),
  },
  { requiredKeys: ['contents'] },
).map(throughJSON);

describe('fuzz: the Gemini request fast path', () => {
  it('takes only bodies the schema takes, and gives the schema output for them', () =>
    checkFastPathAgainstSchema(body, actual.readCommonGeminiRequest, geminiRequestSchema, RUNS.bodies, true));

  it('decodes any body to the request (or the refusal) the schema alone gives', () =>
    checkSameDecoding(body, decodeGeminiRequest, RUNS.decoded));
});
