import { FinishReason, FunctionCallingConfigMode, GoogleGenAI, Type, type Content } from '@google/genai';
import { createSimulator, type Simulator } from './create-simulator';
import { postJson } from './testing/post-json';

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
    },
  ],
};
const timeTool = { functionDeclarations: [{ name: 'get_time', description: 'Local time', parametersJsonSchema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } }] };
const ask = (text: string): Content[] => [{ role: 'user', parts: [{ text }] }];

/** The official `@google/genai` SDK pointed straight at the simulator, with its key in `x-goog-api-key`. */
describe('Gemini generateContent through @google/genai', () => {
  let simulator: Simulator;
  let client: GoogleGenAI;
  let url: string;

  beforeAll(async () => {
    simulator = createSimulator({ apiKey: 'gemini-key' });
    ({ url } = await simulator.listen());
    // The SDK's own fetch option: its default Undici dispatcher is looked up on a global that jest's sandbox lacks.
    client = new GoogleGenAI({ apiKey: 'gemini-key', httpOptions: { baseUrl: url, retryOptions: { attempts: 1 }, fetch: (input, init) => fetch(input, init) } });
  });
  afterAll(() => simulator.close());

  it('answers deterministically with STOP and usage, and streams the same text', async () => {
    const request = { model: 'gemini-2.5-flash-lite', contents: ask('Tell me about rivers') };
    const first = await client.models.generateContent(request);
    const second = await client.models.generateContent(request);
    expect(first.text).toBe(second.text);
    expect(first.text?.startsWith('Tell me about')).toBe(true);
    expect(first.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    expect(first.usageMetadata).toEqual({
      promptTokenCount: 5,
      candidatesTokenCount: 64,
      totalTokenCount: 69,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 5 }],
    });
    expect(first.modelVersion).toBe('gemini-2.5-flash-lite');
    let streamed = '';
    let last: Awaited<ReturnType<typeof client.models.generateContent>> | undefined;
    for await (const chunk of await client.models.generateContentStream(request)) {
      streamed += chunk.text ?? '';
      last = chunk;
    }
    expect(streamed).toBe(first.text);
    expect(last?.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    expect(last?.usageMetadata).toEqual(first.usageMetadata);
  });

  it('signals MAX_TOKENS, stops at a stop sequence, and answers JSON to a response schema', async () => {
    const capped = await client.models.generateContent({ model: 'gemini-2.5-flash-lite', contents: ask('Tell me about rivers'), config: { maxOutputTokens: 10 } });
    expect(capped.candidates?.[0]?.finishReason).toBe(FinishReason.MAX_TOKENS);
    expect(capped.usageMetadata?.candidatesTokenCount).toBe(10);
    const full = (await client.models.generateContent({ model: 'gemini-2.5-flash-lite', contents: ask('Tell me about rivers') })).text ?? '';
    const stopWord = full.split(' ')[6] as string;
    const stopped = await client.models.generateContent({ model: 'gemini-2.5-flash-lite', contents: ask('Tell me about rivers'), config: { stopSequences: [stopWord] } });
    expect(full.startsWith(`${stopped.text} ${stopWord}`)).toBe(true);
    expect(stopped.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    const schema = { type: Type.OBJECT, properties: { reasoning: { type: Type.STRING }, score: { type: Type.INTEGER, minimum: 1, maximum: 100 } }, required: ['reasoning', 'score'] };
    const structured = await client.models.generateContent({
      model: 'gemini-2.5-flash-lite',
      contents: ask('Rate this task'),
      config: { responseMimeType: 'application/json', responseSchema: schema },
    });
    expect(JSON.parse(structured.text ?? '')).toEqual({ reasoning: expect.any(String), score: 1 });
  });

  it('calls a function with an id, one whole call per chunk, then reads its functionResponse', async () => {
    const request = { model: 'gemini-2.5-flash-lite', contents: ask('Weather in Oslo'), config: { tools: [weatherTool] } };
    const json = await client.models.generateContent(request);
    expect(json.candidates?.[0]?.content?.parts?.[0]).toEqual({ text: 'I will call get_weather.' });
    expect(json.functionCalls).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(json.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    const streamedCalls = [];
    for await (const chunk of await client.models.generateContentStream(request)) streamedCalls.push(...(chunk.functionCalls ?? []));
    expect(streamedCalls).toEqual(json.functionCalls);
    const call = json.functionCalls?.[0];
    const result = 'It is 3 degrees with light snow over the fjord tonight';
    const followUp = await client.models.generateContent({
      ...request,
      contents: [
        ...ask('Weather in Oslo'),
        { role: 'model', parts: json.candidates?.[0]?.content?.parts ?? [] },
        { role: 'user', parts: [{ functionResponse: { id: call?.id, name: 'get_weather', response: { output: result } } }] },
      ],
    });
    expect(followUp.text?.startsWith(`Tool result: ${result.slice(0, 40)}`)).toBe(true);
  });

  it('makes parallel calls, and honours ANY with allowed names and NONE', async () => {
    const contents = ask('Call get_weather and get_time in parallel');
    const parallel = await client.models.generateContent({ model: 'gemini-2.5-flash-lite', contents, config: { tools: [weatherTool, timeTool] } });
    expect(parallel.functionCalls?.map(call => call.name)).toEqual(['get_weather', 'get_time']);
    const forced = await client.models.generateContent({
      model: 'gemini-2.5-flash-lite',
      contents,
      config: { tools: [weatherTool, timeTool], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ['get_time'] } } },
    });
    expect(forced.functionCalls?.map(call => call.name)).toEqual(['get_time']);
    const none = await client.models.generateContent({
      model: 'gemini-2.5-flash-lite',
      contents,
      config: { tools: [weatherTool, timeTool], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } } },
    });
    expect(none.functionCalls).toBeUndefined();
  });

  it('thinks with thought parts and a signature, counting thoughts apart', async () => {
    const config = { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } };
    const json = await client.models.generateContent({ model: 'gemini-2.5-flash-lite', contents: ask('Think about it'), config });
    const parts = json.candidates?.[0]?.content?.parts ?? [];
    expect(parts.map(part => part.thought === true)).toEqual([true, false]);
    expect(parts[1]?.thoughtSignature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(json.usageMetadata).toMatchObject({ candidatesTokenCount: 64, thoughtsTokenCount: 16, totalTokenCount: 4 + 64 + 16 });
    const thoughts: string[] = [];
    let signature: string | undefined;
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash-lite', contents: ask('Think about it'), config })) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.thought === true) thoughts.push(part.text ?? '');
        signature ??= part.thoughtSignature;
      }
    }
    expect(thoughts).toHaveLength(16);
    expect(thoughts.join('')).toBe(parts[0]?.text);
    expect(signature).toBe(parts[1]?.thoughtSignature);
    const hidden = await client.models.generateContent({ model: 'gemini-3-flash-preview', contents: ask('Think about it') });
    expect(hidden.candidates?.[0]?.content?.parts?.some(part => part.thought === true)).toBe(false);
    expect(hidden.usageMetadata?.thoughtsTokenCount).toBe(16);
  });

  it('requires an issued thought signature back unchanged on a Gemini 3 function call, and refuses an altered one', async () => {
    const request = { model: 'gemini-3-flash-preview', contents: ask('Weather in Oslo'), config: { tools: [weatherTool] } };
    const json = await client.models.generateContent(request);
    const modelParts = json.candidates?.[0]?.content?.parts ?? [];
    const callPart = modelParts.find(part => part.functionCall !== undefined);
    expect(callPart?.thoughtSignature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const followUp = (parts: typeof modelParts) => ({
      ...request,
      contents: [...ask('Weather in Oslo'), { role: 'model', parts }, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'snow' } } }] }],
    });
    await expect(client.models.generateContent(followUp(modelParts))).resolves.toBeDefined();
    const unsigned = modelParts.map(({ thoughtSignature: _dropped, ...part }) => part);
    await expect(client.models.generateContent(followUp(unsigned))).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Function call is missing a thought_signature') });
    const signature = callPart?.thoughtSignature ?? '';
    const altered = modelParts.map(part => (part.functionCall === undefined ? part : { ...part, thoughtSignature: `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}` }));
    await expect(client.models.generateContent(followUp(altered))).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Corrupted thought signature') });
    const sentinel = unsigned.map(part => (part.functionCall === undefined ? part : { ...part, thoughtSignature: 'skip_thought_signature_validator' }));
    await expect(client.models.generateContent(followUp(sentinel))).resolves.toBeDefined();
  });

  it('counts tokens as generation counts them, and lists models', async () => {
    const contents = ask('Tell me about rivers');
    const counted = await client.models.countTokens({ model: 'gemini-2.5-flash', contents });
    const generated = await client.models.generateContent({ model: 'gemini-2.5-flash-lite', contents });
    expect(counted.totalTokens).toBe(generated.usageMetadata?.promptTokenCount);
    const names: string[] = [];
    for await (const model of await client.models.list()) names.push(model.name ?? '');
    expect(names).toContain('models/gemini-2.5-flash');
    const one = await client.models.get({ model: 'gemini-2.5-pro' });
    expect(one).toMatchObject({ name: 'models/gemini-2.5-pro', supportedActions: expect.arrayContaining(['generateContent', 'countTokens']) });
    await expect(client.models.get({ model: 'no-such-model' })).rejects.toMatchObject({ status: 404 });
  });

  it('answers errors in Google envelope: bad key, missing contents, unknown field, a directed status', async () => {
    const base = `${url}/v1beta/models/gemini-2.5-flash:generateContent`;
    const badKey = await postJson(`${base}?key=wrong`, { contents: ask('hi') });
    expect(badKey.status).toBe(400);
    expect(JSON.parse(badKey.text)).toEqual({
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' })],
      },
    });
    expect(badKey.text).not.toContain('wrong');
    const noKey = await postJson(base, { contents: ask('hi') });
    expect(JSON.parse(noKey.text)).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
    const byQuery = await postJson(`${base}?key=gemini-key`, { contents: ask('hi') });
    expect(byQuery.status).toBe(200);
    const headers = { 'x-goog-api-key': 'gemini-key' };
    const empty = await postJson(base, {}, headers);
    expect(JSON.parse(empty.text)).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('contents is not specified') } });
    const unknown = await postJson(base, { contents: ask('hi'), max_tokens: 5 }, headers);
    expect(JSON.parse(unknown.text)).toMatchObject({ error: { code: 400, message: 'Invalid JSON payload received. Unknown name "max_tokens": Cannot find field.' } });
    const limited = await postJson(base, { contents: ask('[[sim:status=429]] hi') }, headers);
    expect(JSON.parse(limited.text)).toMatchObject({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED', details: expect.arrayContaining([{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }]) },
    });
    const wrongMethod = await postJson(base, undefined, headers, 'GET');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    await expect(client.models.generateContent({ model: 'gemini-2.5-flash', contents: ask('[[sim:status=503]] hi') })).rejects.toMatchObject({ status: 503 });
  });

  it('caches a long prompt implicitly and reports the cached part as cachedContentTokenCount', async () => {
    const caching = createSimulator();
    const { url: cachingUrl } = await caching.listen();
    try {
      const system = { parts: [{ text: 'Fjord rules. '.repeat(400) }] };
      const send = (text: string) => postJson(`${cachingUrl}/v1beta/models/gemini-2.5-flash:generateContent`, { systemInstruction: system, contents: ask(text) }, { 'x-goog-api-key': 'cache-key' });
      const first = JSON.parse((await send('First question')).text) as { usageMetadata: Record<string, unknown> };
      expect(first.usageMetadata.cachedContentTokenCount).toBeUndefined();
      const second = JSON.parse((await send('Second question')).text) as { usageMetadata: Record<string, unknown> };
      expect(second.usageMetadata).toMatchObject({ promptTokenCount: 1304, cachedContentTokenCount: 1280, cacheTokensDetails: [{ modality: 'TEXT', tokenCount: 1280 }] });
      expect(caching.credentialStats('cache-key')).toMatchObject({ requests: 2, cacheReadTokens: 1280 });
    } finally {
      await caching.close();
    }
  });

  it("refuses a key past its limit with Google's 429 and RetryInfo, and a revoked key as invalid", async () => {
    let now = 1_000_000;
    const limited = createSimulator({ credentials: { 'key-limited': { requestsPerMinute: 1 }, 'key-revoked': { revoked: true } }, now: () => now });
    const { url: limitedUrl } = await limited.listen();
    try {
      const send = (key: string) => postJson(`${limitedUrl}/v1beta/models/gemini-2.5-flash:generateContent?key=${key}`, { contents: ask('hi') });
      expect((await send('key-limited')).status).toBe(200);
      const refused = await send('key-limited');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-limit-requests')).toBeNull();
      expect(JSON.parse(refused.text)).toEqual({
        error: {
          code: 429,
          message: expect.stringContaining('You exceeded your current quota'),
          status: 'RESOURCE_EXHAUSTED',
          details: [expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.QuotaFailure' }), { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '60s' }],
        },
      });
      now += 60_000;
      expect((await send('key-limited')).status).toBe(200);
      const revoked = await send('key-revoked');
      expect(JSON.parse(revoked.text)).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', details: [expect.objectContaining({ reason: 'API_KEY_INVALID' })] } });
      expect(limited.credentialStats('key-limited')).toMatchObject({ requests: 3, rateLimited: 1 });
    } finally {
      await limited.close();
    }
  });

  it('withholds the answer and ends with the finishReason a [[sim:finish]] marker names', async () => {
    const json = await client.models.generateContent({ model: 'gemini-2.5-flash-lite', contents: ask('[[sim:finish=SAFETY]] Tell me') });
    expect(json.candidates?.[0]).toEqual({ finishReason: FinishReason.SAFETY, index: 0 });
    expect(json.usageMetadata?.candidatesTokenCount).toBeUndefined();
    const chunks = [];
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash-lite', contents: ask('[[sim:finish=MALFORMED_FUNCTION_CALL]] x') })) chunks.push(chunk);
    expect(chunks.map(chunk => chunk.candidates?.[0]?.finishReason)).toEqual([FinishReason.MALFORMED_FUNCTION_CALL]);
  });
});
