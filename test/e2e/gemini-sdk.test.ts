import { ApiError, FunctionCallingConfigMode, type Content, type GoogleGenAI } from '@google/genai';
import { geminiClient } from '../helpers/gemini-client';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

/** The official `@google/genai` SDK on the Gemini endpoints, served by upstreams of the three other protocols. */
const ROUTES = ['sim-via-responses', 'sim-via-messages', 'sim-via-chat'];
const PROMPT = 'Describe how a railway signalbox sorts freight cars';
const weather = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe.each(ROUTES)('the @google/genai SDK on %s', model => {
  let server: TestGateway;
  let genai: GoogleGenAI;
  beforeAll(async () => {
    server = await startTestGateway();
    genai = geminiClient(server.demoKey, server.url);
  });
  afterAll(() => server.close(1_000));

  it('generates, and streams the same text over SSE chunks', async () => {
    const response = await genai.models.generateContent({ model, contents: PROMPT });
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.text).toMatch(/^Describe how a/);
    expect(response.modelVersion).toBe(model);
    expect(response.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    expect(response.usageMetadata?.totalTokenCount).toBe(response.usageMetadata!.promptTokenCount! + response.usageMetadata!.candidatesTokenCount!);
    let streamed = '';
    let chunks = 0;
    let finishReason: string | undefined;
    for await (const chunk of await genai.models.generateContentStream({ model, contents: PROMPT })) {
      chunks += 1;
      streamed += chunk.text ?? '';
      finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
    }
    expect(chunks).toBeGreaterThan(2);
    expect(streamed).toBe(response.text);
    expect(finishReason).toBe('STOP');
  });

  it('makes a function call and answers from its response, in JSON and streamed', async () => {
    const tools = [{ functionDeclarations: [weather] }];
    const config = { tools, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } } };
    const first = await genai.models.generateContent({ model, contents: 'What is the weather in Oslo?', config });
    const call = first.functionCalls?.[0];
    expect(call).toMatchObject({ name: 'get_weather', args: { city: expect.any(String) } });
    let streamedCall: unknown;
    for await (const chunk of await genai.models.generateContentStream({ model, contents: 'What is the weather in Oslo?', config })) {
      streamedCall ??= chunk.functionCalls?.[0];
    }
    expect(streamedCall).toMatchObject({ name: 'get_weather', args: call!.args });
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'What is the weather in Oslo?' }] },
      first.candidates![0]!.content!,
      { role: 'user', parts: [{ functionResponse: { id: call!.id, name: 'get_weather', response: { output: 'Sunny and 21 degrees in Oslo today' } } }] },
    ];
    const answer = await genai.models.generateContent({ model, contents: history, config });
    expect(answer.text).toContain('Sunny and 21 degrees');
  });

  it('is served under /v1beta as under /v1, the SDK asking by its apiVersion', async () => {
    const beta = geminiClient(server.demoKey, server.url, 'v1beta');
    const [stable, viaBeta] = await Promise.all([genai, beta].map(client => client.models.generateContent({ model, contents: PROMPT })));
    expect(viaBeta!.text).toBe(stable!.text);
    let streamed = '';
    for await (const chunk of await beta.models.generateContentStream({ model, contents: PROMPT })) streamed += chunk.text ?? '';
    expect(streamed).toBe(stable!.text);
  });

  it('counts tokens and lists the routes as models/…', async () => {
    const counted = await genai.models.countTokens({ model, contents: PROMPT });
    expect(counted.totalTokens).toBeGreaterThan(0);
    const names: string[] = [];
    for await (const listed of await genai.models.list()) names.push(listed.name!);
    expect(names).toContain(`models/${model}`);
  });

  it('refuses a wrong key and an unknown model in Google’s error envelope with the request id', async () => {
    const wrong = geminiClient('sbx-not-a-key', server.url);
    const refused = await wrong.models.generateContent({ model, contents: PROMPT }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(401);
    const body = JSON.parse((refused as ApiError).message) as { error: { status: string; details: { reason?: string; requestId?: string }[] } };
    expect(body.error.status).toBe('UNAUTHENTICATED');
    expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'API_KEY_INVALID' }), expect.objectContaining({ requestId: expect.stringMatching(/^req_/) })]));
    const missing = await genai.models.generateContent({ model: 'no-such-model', contents: PROMPT }).catch((error: unknown) => error);
    expect((missing as ApiError).status).toBe(404);
    expect(JSON.parse((missing as ApiError).message)).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });
});
