import type { SSEMessage } from '@signalbox/core';
import { expectOnlyViolations as expectOnly } from './expect-only-violations';
import { geminiArrayMessages, validateGeminiStream } from './validate-gemini-stream';

// Wire-shaped synthetic chunks after https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent:
// 0 a thought, 1 text with a signature, 2 a whole function call, 3 finishReason STOP with usage.
const identity = { modelVersion: 'gemini-2.5-flash', responseId: 'r-1' };
const chunk = (parts: object[], extra: object = {}) => ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], ...identity });
const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 7, thoughtsTokenCount: 3, totalTokenCount: 22 };
const CHUNKS = [
  chunk([{ text: 'Weighing it', thought: true }]),
  chunk([{ text: 'Checking Oslo', thoughtSignature: 'c2ln' }]),
  chunk([{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }]),
  { ...chunk([{ text: '' }], { finishReason: 'STOP' }), usageMetadata },
];
const frames = (chunks: readonly object[]): SSEMessage[] => chunks.map(data => ({ data: JSON.stringify(data) }));

describe('validateGeminiStream', () => {
  it('accepts a whole stream: completed, its text without thoughts', () => {
    const verdict = validateGeminiStream(frames(CHUNKS));
    expect(verdict).toEqual({ violations: [], outcome: 'completed', text: 'Checking Oslo', events: ['chunk', 'chunk', 'chunk', 'chunk'] });
  });

  it('reads a JSON-array stream as the same chunks', () => {
    const text = `[${CHUNKS.map(item => JSON.stringify(item)).join(',\r\n')}]`;
    expect(validateGeminiStream(geminiArrayMessages(text)!).violations).toEqual([]);
    expect(geminiArrayMessages('[{"candidates":')).toBeUndefined();
  });

  it('accepts an error chunk as the end, and nothing after it', () => {
    const error = { error: { code: 503, message: 'Overloaded.', status: 'UNAVAILABLE' } };
    expect(validateGeminiStream(frames([CHUNKS[0]!, error]))).toMatchObject({ violations: [], outcome: 'error' });
    expectOnly(validateGeminiStream(frames([CHUNKS[0]!, error, CHUNKS[3]!])), 'event #2 (chunk): chunk after the error');
    expectOnly(validateGeminiStream(frames([{ error: { message: 'x' } }])), 'event #0 (error): error must be {code, message, status}');
  });

  it('reports a stream that ends without a finishReason, and a chunk after it', () => {
    expectOnly(validateGeminiStream(frames(CHUNKS.slice(0, 3))), 'event #3 (end of stream): stream ended without a chunk with a finishReason');
    expectOnly(validateGeminiStream(frames([...CHUNKS, CHUNKS[1]!])), 'event #4 (chunk): chunk after the finishReason');
  });

  it('reports a changed identity, several candidates, a part of two kinds, a partial call and usage that does not add up', () => {
    expectOnly(validateGeminiStream(frames([CHUNKS[0]!, { ...CHUNKS[1]!, responseId: 'r-2' }, ...CHUNKS.slice(2)])), 'event #1 (chunk): responseId "r-2" differs');
    const two = { ...CHUNKS[1]!, candidates: [CHUNKS[1]!.candidates![0], CHUNKS[1]!.candidates![0]] };
    expectOnly(validateGeminiStream(frames([CHUNKS[0]!, two, ...CHUNKS.slice(2)])), 'event #1 (chunk): candidates must hold one candidate');
    expectOnly(validateGeminiStream(frames([chunk([{ text: 'x', functionCall: { name: 'f', args: {} } }]), CHUNKS[3]!])), 'event #0 (chunk): a part holds one kind of content');
    expectOnly(validateGeminiStream(frames([chunk([{ functionCall: { args: '{"city":' } }]), CHUNKS[3]!])), 'event #0 (chunk): functionCall must be {name, args: {...}}');
    const wrongTotal = { ...CHUNKS[3]!, usageMetadata: { ...usageMetadata, totalTokenCount: 19 } };
    expectOnly(validateGeminiStream(frames([...CHUNKS.slice(0, 3), wrongTotal])), 'event #3 (chunk): usageMetadata.totalTokenCount 19 is not the sum');
  });

  it('reads MAX_TOKENS and a blocked prompt as incomplete', () => {
    expect(validateGeminiStream(frames([{ ...chunk([{ text: 'cut' }], { finishReason: 'MAX_TOKENS' }), usageMetadata }])).outcome).toBe('incomplete');
    expect(validateGeminiStream(frames([{ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 0, totalTokenCount: 3 }, ...identity }])).outcome).toBe('incomplete');
  });
});
