import type { DecodeOptions } from '@signalbox/core';
import { decodeGeminiRequest } from './decode-gemini-request';

const endpoint = (stream = false, model = 'gemini-test'): DecodeOptions => ({ endpoint: { model, stream, query: {} } });
const user = (text: string) => ({ role: 'user', parts: [{ text }] });

function refusal(body: unknown, options: DecodeOptions = endpoint()) {
  try {
    decodeGeminiRequest(body, options);
  } catch (error) {
    return error as { code: string; message: string; param?: string };
  }
  throw new Error('expected a refusal');
}

describe('decodeGeminiRequest', () => {
  it('takes the model and streaming from the path, dropping a models/ prefix', () => {
    expect(decodeGeminiRequest({ contents: [user('hi')] }, endpoint(true, 'models/gemini-2.5-flash')).value).toMatchObject({ model: 'gemini-2.5-flash', stream: true });
    expect(decodeGeminiRequest({ contents: [user('hi')] }, endpoint(false)).value.stream).toBe(false);
  });

  it('reads system instructions, settings, structured output and thinking', () => {
    const { value } = decodeGeminiRequest(
      {
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [user('hi')],
        generationConfig: {
          maxOutputTokens: 300,
          temperature: 0.2,
          topP: 0.9,
          topK: 40,
          stopSequences: ['END'],
          responseMimeType: 'application/json',
          responseSchema: { type: 'OBJECT', properties: { city: { type: 'STRING', nullable: true } }, required: ['city'], propertyOrdering: ['city'] },
          thinkingConfig: { thinkingLevel: 'low', includeThoughts: true },
        },
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        tools: [{ googleSearch: {} }],
      },
      endpoint(),
    );
    expect(value).toEqual({
      model: 'gemini-test',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: false,
      maxOutputTokens: 300,
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ['END'],
      reasoning: { effort: 'low' },
      responseFormat: {
        type: 'json-schema',
        schema: { type: 'object', properties: { city: { type: ['string', 'null'] } }, required: ['city'] },
      },
      providerOptions: {
        'google-gemini': {
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
          tools: [{ googleSearch: {} }],
          generationConfig: { topK: 40 },
          includeThoughts: true,
        },
      },
    });
  });

  it('reads a budget of 0 as no reasoning and a positive one as a budget', () => {
    const budget = (thinkingBudget: number) => decodeGeminiRequest({ contents: [user('hi')], generationConfig: { thinkingConfig: { thinkingBudget } } }, endpoint()).value.reasoning;
    expect(budget(0)).toEqual({ effort: 'none' });
    expect(budget(2048)).toEqual({ budgetTokens: 2048 });
    expect(budget(-1)).toBeUndefined();
  });

  it('turns function declarations into tools (OpenAPI subset or JSON Schema) and the calling mode into a tool choice', () => {
    const { value } = decodeGeminiRequest(
      {
        contents: [user('weather?')],
        tools: [
          {
            functionDeclarations: [
              { name: 'get_weather', description: 'Weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, days: { type: 'INTEGER' } } } },
              { name: 'get_time', parametersJsonSchema: { type: 'object', properties: { zone: { const: 'UTC' } } } },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] } },
      },
      endpoint(),
    );
    expect(value.tools).toEqual([
      { name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
      { name: 'get_time', inputSchema: { type: 'object', properties: { zone: { const: 'UTC' } } } },
    ]);
    expect(value.toolChoice).toEqual({ type: 'tool', name: 'get_time' });
  });

  it('matches function responses to their calls by id, else to the oldest unanswered call of that name, and keeps signatures before their part', () => {
    const { value } = decodeGeminiRequest(
      {
        contents: [
          user('weather in Oslo and Bergen?'),
          {
            role: 'model',
            parts: [
              { text: 'Planning', thought: true },
              { text: ' the calls', thought: true, thoughtSignature: 'sig-thought' },
              { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-call' },
              { functionCall: { id: 'own-id', name: 'get_weather', args: { city: 'Bergen' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { id: 'own-id', name: 'get_weather', response: { error: 'no data' } } },
              { functionResponse: { name: 'get_weather', response: { output: 'Sunny' } } },
              { text: 'Thanks' },
            ],
          },
        ],
      },
      endpoint(),
    );
    expect(value.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather in Oslo and Bergen?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Planning the calls', signature: 'sig-thought' },
          { type: 'reasoning', text: '', signature: 'sig-call' },
          { type: 'tool-call', callId: 'call_1_2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          { type: 'tool-call', callId: 'own-id', name: 'get_weather', arguments: '{"city":"Bergen"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'own-id', content: [{ type: 'text', text: 'no data' }], isError: true },
          { type: 'tool-result', callId: 'call_1_2', content: [{ type: 'text', text: 'Sunny' }] },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ]);
  });

  it('reads inline images and files, and files by URI', () => {
    const { value } = decodeGeminiRequest(
      {
        contents: [
          {
            role: 'user',
            parts: [
              { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
              { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
              { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
            ],
          },
        ],
      },
      endpoint(),
    );
    expect(value.messages[0]!.content).toEqual([
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
      { type: 'image', source: { kind: 'url', url: 'https://example.com/a.jpg' } },
    ]);
  });

  it('refuses unknown fields, several candidates, a bad role, a bad thinking level and a body without contents with 400', () => {
    expect(refusal({ contents: [], temperature: 1 })).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('temperature') });
    expect(refusal({ contents: [user('hi')], generationConfig: { candidateCount: 2 } })).toMatchObject({ code: 'UNSUPPORTED_PARAMETER', param: 'generationConfig.candidateCount' });
    expect(refusal({ contents: [{ role: 'system', parts: [{ text: 'x' }] }] })).toMatchObject({ code: 'INVALID_REQUEST', param: 'contents.0.role' });
    expect(refusal({ contents: [user('hi')], generationConfig: { thinkingConfig: { thinkingLevel: 'extreme' } } })).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(refusal({ generationConfig: {} })).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('contents') });
    expect(refusal('[]')).toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it("refuses another protocol's field, naming where it belongs and Gemini's own field for the same thing", () => {
    const foreignFields = { path: '/v1beta/models/{model}:generateContent', fields: new Map([['messages', { paths: ['/v1/messages'], instead: 'the conversation goes in `contents`' }]]) };
    const error = refusal({ contents: [user('hi')], messages: [] }, { ...endpoint(), foreignFields });
    expect(error.message).toMatch(/^`messages` is a field of POST \/v1\/messages, not of this endpoint .*the conversation goes in `contents`/);
  });
});
