import type { GenerationRequest } from '@signalbox/core';
import { decodeGeminiRequest } from './decode-gemini-request';
import { encodeGeminiRequest } from './encode-gemini-request';

const base: GenerationRequest = { model: 'route', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const encode = (request: Partial<GenerationRequest>) => encodeGeminiRequest({ ...base, ...request }, 'gemini-2.5-flash');

describe('encodeGeminiRequest', () => {
  it('names neither the model nor the framing in the body', () => {
    expect(encode({ stream: true }).value).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });

  it("gives a Gemini client's own contents back as it sent them: signatures on their parts, calls with their ids", () => {
    const contents = [
      { role: 'user', parts: [{ text: 'weather in Oslo?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Planning the call', thought: true, thoughtSignature: 'sig-thought' },
          { functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'sig-call' },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'get_weather', response: { output: 'Sunny' } } }, { text: 'And tomorrow?' }] },
      { role: 'model', parts: [{ text: 'Also sunny.' }, { text: '', thoughtSignature: 'sig-end' }] },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ];
    const body = {
      contents,
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] }, { googleSearch: {} }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      generationConfig: { maxOutputTokens: 100, topK: 3, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
    };
    const decoded = decodeGeminiRequest(body, { endpoint: { model: 'route', stream: false } }).value;
    expect(encodeGeminiRequest(decoded, 'gemini-2.5-flash')).toEqual({ value: body, warnings: [] });
  });

  it('sends a schema the OpenAPI subset cannot say whole as parametersJsonSchema, and structured output as responseJsonSchema', () => {
    const schema = { type: 'object', properties: { mode: { oneOf: [{ const: 'a' }, { const: 'b' }] } } };
    const { value } = encode({
      tools: [
        { name: 'plain', inputSchema: { type: 'object', properties: { n: { type: ['integer', 'null'] } }, additionalProperties: false } },
        { name: 'rich', inputSchema: schema },
      ],
      toolChoice: { type: 'required' },
      responseFormat: { type: 'json-schema', schema },
    });
    expect(value.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'plain', parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true } } } },
          { name: 'rich', parametersJsonSchema: schema },
        ],
      },
    ]);
    expect(value.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(value.generationConfig).toEqual({ responseMimeType: 'application/json', responseJsonSchema: schema });
  });

  it('asks for thoughts for reasoning from another protocol: an effort as a level, none as a budget of 0', () => {
    expect(encode({ reasoning: { effort: 'high' } }).value.generationConfig).toEqual({ thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' } });
    expect(encode({ reasoning: { budgetTokens: 4096 } }).value.generationConfig).toEqual({ thinkingConfig: { includeThoughts: true, thinkingBudget: 4096 } });
    expect(encode({ reasoning: { effort: 'none' } }).value.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
  });

  it("merges consecutive turns of one role, names each result after its call, and warns for what it cannot carry (a system turn's place)", () => {
    const { value, warnings } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'system', content: [{ type: 'text', text: 'Mind the units.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: '', encryptedContent: 'opaque' },
            { type: 'tool-call', callId: 'toolu_1', name: 'read_file', arguments: '' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', callId: 'toolu_1', isError: true, content: [{ type: 'text', text: 'not found' }] }] },
      ],
    });
    expect(value.systemInstruction).toEqual({ parts: [{ text: 'Mind the units.' }] });
    expect(value.contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      // Gemini 3 refuses a first call without a signature: one of another model gets Google's marker for that.
      { role: 'model', parts: [{ functionCall: { id: 'toolu_1', name: 'read_file', args: {} }, thoughtSignature: 'skip_thought_signature_validator' }] },
      { role: 'user', parts: [{ functionResponse: { id: 'toolu_1', name: 'read_file', response: { error: 'not found' } } }] },
    ]);
    expect(warnings.map(warning => warning.field)).toEqual(['messages.1', 'reasoning']);
  });

  it('sends system messages of the conversation (Codex’s developer messages, Claude Code’s system turns) in systemInstruction, never as user text', () => {
    const { value, warnings } = encode({
      system: [{ type: 'text', text: 'You are a coding agent.' }],
      messages: [
        { role: 'system', content: [{ type: 'text', text: '<permissions instructions>read-only</permissions instructions>' }] },
        { role: 'user', content: [{ type: 'text', text: 'Use read_file to read notes.txt' }] },
        { role: 'system', content: [{ type: 'text', text: '# Environment' }, { type: 'text', text: 'Platform: linux' }] },
      ],
    });
    expect(value.systemInstruction).toEqual({
      parts: [{ text: 'You are a coding agent.' }, { text: '<permissions instructions>read-only</permissions instructions>' }, { text: '# Environment' }, { text: 'Platform: linux' }],
    });
    expect(value.contents).toEqual([{ role: 'user', parts: [{ text: 'Use read_file to read notes.txt' }] }]);
    // Only the turn that followed the user's lost its place.
    expect(warnings).toEqual([expect.objectContaining({ type: 'lossy-conversion', field: 'messages.2' })]);
  });
});
