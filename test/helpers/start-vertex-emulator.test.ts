import { GoogleGenAI } from '@google/genai';
import { startVertexEmulator, type VertexEmulator } from './start-vertex-emulator';

const PROJECT = 'signalbox-gemini';
const REGION = 'europe-west4';
const TOKEN = 'ya29.vertex-gemini-test';

/**
 * The Vertex AI emulator's Gemini methods, driven by `@google/genai` in Vertex AI mode: the SDK builds
 * the publisher-model paths itself and sends the bearer token its auth client gives.
 */
describe('startVertexEmulator: Gemini models', () => {
  let vertex: VertexEmulator;
  let client: GoogleGenAI;

  beforeAll(async () => {
    vertex = await startVertexEmulator({ project: PROJECT, region: REGION, verifyToken: token => token === TOKEN });
    const authClient = { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${TOKEN}` }) };
    client = new GoogleGenAI({
      vertexai: true,
      project: PROJECT,
      location: REGION,
      googleAuthOptions: { authClient: authClient as never },
      // The SDK's own fetch option: its default Undici dispatcher is looked up on a global that jest's sandbox lacks.
      httpOptions: { baseUrl: new URL(vertex.baseURL).origin, retryOptions: { attempts: 1 }, fetch: (input, init) => fetch(input, init) },
    });
  });
  afterAll(() => vertex.close());

  it('answers generateContent, streamGenerateContent (alt=sse) and countTokens on a Google publisher model', async () => {
    const contents = 'Name a lighthouse';
    const json = await client.models.generateContent({ model: 'gemini-2.5-flash', contents, config: { thinkingConfig: { thinkingBudget: 0 } } });
    expect(json.text?.startsWith('Name a lighthouse')).toBe(true);
    let streamed = '';
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents, config: { thinkingConfig: { thinkingBudget: 0 } } })) streamed += chunk.text ?? '';
    expect(streamed).toBe(json.text);
    const counted = await client.models.countTokens({ model: 'gemini-2.5-flash', contents });
    expect(counted.totalTokens).toBe(json.usageMetadata?.promptTokenCount);
    expect(vertex.served.slice(-3)).toEqual([
      expect.objectContaining({ publisher: 'google', model: 'gemini-2.5-flash', method: 'generateContent' }),
      expect.objectContaining({ publisher: 'google', model: 'gemini-2.5-flash', method: 'streamGenerateContent' }),
      expect.objectContaining({ publisher: 'google', model: 'gemini-2.5-flash', method: 'countTokens' }),
    ]);
    expect(vertex.tokens.every(token => token.accepted)).toBe(true);
  });

  it("refuses another project's path and a query parameter the method does not bind, in Google's envelope", async () => {
    const origin = new URL(vertex.baseURL).origin;
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    const elsewhere = await fetch(`${origin}/v1/projects/other/locations/${REGION}/publishers/google/models/gemini-2.5-flash:generateContent`, { method: 'POST', headers, body });
    expect(await elsewhere.json()).toEqual({ error: { code: 404, message: 'Publisher model not found.', status: 'NOT_FOUND' } });
    const unbound = await fetch(`${vertex.baseURL}/publishers/google/models/gemini-2.5-flash:generateContent?debug=1`, { method: 'POST', headers, body });
    expect(await unbound.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('Unknown name "debug"') } });
  });
});
