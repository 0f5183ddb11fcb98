import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { createSimulator, type Simulator } from './create-simulator';
import { postJson } from './testing/post-json';
import { readBodyUntilEnd } from './testing/read-body-until-end';

const body = (text: string, extra: Record<string, unknown> = {}) => ({ contents: [{ role: 'user', parts: [{ text }] }], ...extra });
const weatherTool = { functionDeclarations: [{ name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } }] };

/** A stream's elements without the per-response id, for comparing two answers to the same prompt. */
const withoutIds = (chunks: readonly Record<string, unknown>[]) => chunks.map(({ responseId: _id, ...chunk }) => chunk);

/** The JSON payloads of an SSE body that must consist of `data: <json>\r\n\r\n` events and nothing else. */
function sseChunks(text: string): Record<string, unknown>[] {
  expect(text).toMatch(/^(data: \{[^\r\n]*\}\r\n\r\n)+$/);
  return text.split('\r\n\r\n').filter(event => event !== '').map(event => JSON.parse(event.slice('data: '.length)) as Record<string, unknown>);
}

/** Wire bytes of Gemini's two stream framings: SSE events (`?alt=sse`) and a JSON array written element by element. */
describe('Gemini streamGenerateContent on the wire', () => {
  let simulator: Simulator;
  let url: string;
  const streamUrl = (model: string, sse: boolean) => `${url}/v1beta/models/${model}:streamGenerateContent${sse ? '?alt=sse' : ''}`;

  beforeAll(async () => {
    simulator = createSimulator();
    ({ url } = await simulator.listen());
  });
  afterAll(() => simulator.close());

  it('frames SSE as CRLF-delimited data events and the array as one JSON array of the same chunks', async () => {
    const sse = await postJson(streamUrl('gemini-2.5-flash', true), body('Tell me about rivers', { tools: [weatherTool] }));
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    const chunks = sseChunks(sse.text);
    const array = await postJson(streamUrl('gemini-2.5-flash', false), body('Tell me about rivers', { tools: [weatherTool] }));
    expect(array.headers.get('content-type')).toBe('application/json');
    expect(array.text).toMatch(/^\[\{.*\}\]$/s);
    const elements = array.text.slice(1, -1).split(',\r\n').map(element => JSON.parse(element) as Record<string, unknown>);
    expect(JSON.parse(array.text)).toEqual(elements);
    expect(withoutIds(elements)).toEqual(withoutIds(chunks));
    expect(new Set(chunks.map(chunk => chunk.responseId)).size).toBe(1);
  });

  it('sends one chunk per token with running usage, the finishReason and final usage only on the last', async () => {
    const chunks = sseChunks((await postJson(streamUrl('gemini-2.5-flash-lite', true), body('Tell me about rivers'))).text);
    expect(chunks).toHaveLength(64);
    const candidates = chunks.map(chunk => (chunk.candidates as Record<string, unknown>[])[0] as Record<string, unknown>);
    expect(candidates.slice(0, -1).every(candidate => candidate.finishReason === undefined)).toBe(true);
    expect(candidates.at(-1)).toMatchObject({ finishReason: 'STOP', index: 0 });
    expect(chunks.map(chunk => (chunk.usageMetadata as Record<string, number>).candidatesTokenCount)).toEqual(Array.from({ length: 64 }, (_, index) => index + 1));
    expect(chunks.at(-1)?.usageMetadata).toEqual({ promptTokenCount: 5, candidatesTokenCount: 64, totalTokenCount: 69, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 5 }] });
    const json = JSON.parse((await postJson(`${url}/v1beta/models/gemini-2.5-flash-lite:generateContent`, body('Tell me about rivers'))).text) as GenerateContentResponse;
    const streamedText = candidates.map(candidate => ((candidate.content as { parts: { text: string }[] }).parts[0] as { text: string }).text).join('');
    expect(streamedText).toBe(json.candidates?.[0]?.content?.parts?.[0]?.text);
  });

  it('puts each function call whole in its own chunk, the signature on the first call of a thinking answer', async () => {
    const chunks = sseChunks((await postJson(streamUrl('gemini-3-flash-preview', true), body('Call get_weather and get_time in parallel', { tools: [weatherTool, { functionDeclarations: [{ name: 'get_time', description: 'Local time' }] }] }))).text);
    const parts = chunks.map(chunk => ((chunk.candidates as { content: { parts: Record<string, unknown>[] } }[])[0] as { content: { parts: Record<string, unknown>[] } }).content.parts);
    expect(parts.every(chunkParts => chunkParts.length === 1)).toBe(true);
    const calls = parts.map(chunkParts => chunkParts[0] as Record<string, unknown>).filter(part => part.functionCall !== undefined);
    expect(calls.map(part => (part.functionCall as { name: string }).name)).toEqual(['get_weather', 'get_time']);
    expect(typeof calls[0]?.thoughtSignature).toBe('string');
    expect(calls[1]?.thoughtSignature).toBeUndefined();
    expect(parts.flat().filter(part => part.thoughtSignature !== undefined)).toHaveLength(1);
  });

  it.each([true, false])('ends with the in-stream error after three tokens on [[sim:stream-error]] (SSE: %s)', async sse => {
    const raw = await postJson(streamUrl('gemini-2.5-flash-lite', sse), body('[[sim:stream-error]] Tell me about rivers'));
    expect(raw.status).toBe(200);
    const error = { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } };
    const elements = sse ? sseChunks(raw.text) : (JSON.parse(raw.text) as Record<string, unknown>[]);
    expect(elements).toHaveLength(4);
    expect(elements.at(-1)).toEqual(error);
  });

  it.each([true, false])('stops writing mid-stream on [[sim:cut]], after three whole elements (SSE: %s)', async sse => {
    const response = await fetch(streamUrl('gemini-2.5-flash-lite', sse), { method: 'POST', body: JSON.stringify(body('[[sim:cut]] Tell me about rivers')) });
    const outcome = await readBodyUntilEnd(response);
    if (sse) {
      expect(sseChunks(outcome.text)).toHaveLength(3);
    } else {
      expect(outcome.text.startsWith('[{')).toBe(true);
      expect(outcome.text.endsWith(']')).toBe(false);
      expect(JSON.parse(`${outcome.text}]`)).toHaveLength(3);
    }
  });

  it('is read by @google/genai the same however its bytes are split', async () => {
    const raw = await postJson(streamUrl('gemini-2.5-flash-lite', true), body('Think about rivers', { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 512 } } }));
    const bytes = Buffer.from(raw.text, 'utf8');
    const readWith = async (pieceSize: number) => {
      const replay = () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let start = 0; start < bytes.length; start += pieceSize) controller.enqueue(new Uint8Array(bytes.subarray(start, start + pieceSize)));
            controller.close();
          },
        });
        return Promise.resolve(new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
      };
      const client = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: url, retryOptions: { attempts: 1 }, fetch: replay } });
      const seen: unknown[] = [];
      for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash-lite', contents: 'ignored' })) seen.push(chunk.candidates);
      return seen;
    };
    const whole = await readWith(bytes.length);
    expect(whole).toHaveLength(16 + 64);
    for (const size of [1, 7, 256]) expect(await readWith(size)).toEqual(whole);
  });
});
