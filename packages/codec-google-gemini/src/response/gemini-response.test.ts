import type { GenerationRequest, GenerationResponse } from '@signalbox/core';
import { decodeGeminiResponse } from './decode-gemini-response';
import { encodeGeminiResponse } from './encode-gemini-response';

const request = (includeThoughts?: boolean): GenerationRequest => ({
  model: 'route-1',
  system: [],
  messages: [],
  stream: false,
  ...(includeThoughts !== undefined && { providerOptions: { 'google-gemini': { includeThoughts } } }),
});

describe('decodeGeminiResponse', () => {
  it('reads thoughts, signatures before their part, calls, the finish reason and usage', () => {
    const response = decodeGeminiResponse({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Considering', thought: true, thoughtSignature: 'sig-1' },
              { text: 'Checking the weather.' },
              { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-2' },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 30, cachedContentTokenCount: 64, totalTokenCount: 150 },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'resp-1',
    });
    expect(response).toEqual({
      id: 'resp-1',
      model: 'gemini-2.5-pro',
      content: [
        { type: 'reasoning', text: 'Considering', signature: 'sig-1' },
        { type: 'text', text: 'Checking the weather.' },
        { type: 'reasoning', text: '', signature: 'sig-2' },
        { type: 'tool-call', callId: 'call_resp-1_0', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 100, outputTokens: 50, cacheReadTokens: 64, cacheWriteTokens: 0, cacheWrite1hTokens: undefined, reasoningTokens: 30 },
    });
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content-filter'],
    ['RECITATION', 'content-filter'],
    ['PROHIBITED_CONTENT', 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', 'other'],
    ['OTHER', 'other'],
  ])('reads finishReason %s as %s', (raw, unified) => {
    expect(decodeGeminiResponse({ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: raw }] }).finishReason).toEqual({ unified, raw });
  });

  it('reads a blocked prompt as an empty answer stopped by a filter, and refuses a body that is no response', () => {
    expect(decodeGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' } })).toMatchObject({ content: [], finishReason: { unified: 'content-filter', raw: 'SAFETY' } });
    expect(() => decodeGeminiResponse({ candidates: 'none' })).toThrow(expect.objectContaining({ code: 'UPSTREAM_FAILED' }));
  });
});

describe('encodeGeminiResponse', () => {
  const answer: GenerationResponse = {
    id: 'msg_1',
    model: 'claude',
    content: [
      { type: 'reasoning', text: 'Thinking it over', signature: 'anthropic-sig' },
      { type: 'text', text: 'Calling.' },
      { type: 'reasoning', text: '', signature: 'gemini-sig' },
      { type: 'tool-call', callId: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: { inputTokens: 100, outputTokens: 50, cacheReadTokens: 64, cacheWriteTokens: 0, cacheWrite1hTokens: undefined, reasoningTokens: 30 },
  };

  it('answers one candidate under the client’s model ID; thoughts only for a client that asked for them', () => {
    const body = encodeGeminiResponse(answer, { request: request(true), createdAt: 0 });
    expect(body).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Thinking it over', thought: true, thoughtSignature: 'anthropic-sig' },
              { text: 'Calling.' },
              { functionCall: { id: 'toolu_1', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'gemini-sig' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, thoughtsTokenCount: 30, cachedContentTokenCount: 64, totalTokenCount: 150 },
      modelVersion: 'route-1',
      responseId: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
    });
    const quiet = encodeGeminiResponse(answer, { request: request(), createdAt: 0 }) as { candidates: { content: { parts: unknown[] } }[] };
    expect(quiet.candidates[0]!.content.parts).toEqual([
      { text: 'Calling.' },
      { functionCall: { id: 'toolu_1', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'gemini-sig' },
    ]);
  });

  it('says MAX_TOKENS for a cut answer and SAFETY for a filtered one', () => {
    const finish = (unified: 'length' | 'content-filter', raw?: string) =>
      (encodeGeminiResponse({ ...answer, finishReason: { unified, raw } }, { request: request(), createdAt: 0 }) as { candidates: { finishReason: string }[] }).candidates[0]!.finishReason;
    expect(finish('length', 'max_tokens')).toBe('MAX_TOKENS');
    expect(finish('content-filter', 'refusal')).toBe('SAFETY');
    expect(finish('content-filter', 'RECITATION')).toBe('RECITATION');
  });
});
