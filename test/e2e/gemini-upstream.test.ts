import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { Content } from '@google/genai';
import { startWithConfig } from '../errors/refusal-helpers';
import { protocolClients, type ClientProtocol } from '../helpers/ask-every-protocol';
import { startGeminiUpstream, type GeminiUpstream } from '../helpers/start-gemini-upstream';
import type { TestGateway } from '../helpers/start-test-gateway';

const UPSTREAM_KEY = `gemini-upstream-${Math.random().toString(36).slice(2)}`;
const CLIENTS: ClientProtocol[] = ['responses', 'chat', 'messages', 'gemini'];
const weather = { name: 'get_weather', description: 'Current weather for a city', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

/**
 * A Gemini API upstream (a small emulator on 127.0.0.1 that holds signatures to Gemini 3's rule)
 * behind a route every client protocol reaches: the call goes to `/models/{model}:generateContent`
 * or `:streamGenerateContent?alt=sse` under the base URL with the key in `x-goog-api-key`, and a
 * thought signature comes back unchanged on the function call it was issued with.
 */
describe('a Gemini API upstream', () => {
  let upstream: GeminiUpstream;
  let server: TestGateway;
  beforeAll(async () => {
    upstream = await startGeminiUpstream({ key: UPSTREAM_KEY });
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: { ...config.upstreams, gemini: { protocol: 'google-gemini', baseURL: `${upstream.url}/v1beta`, apiKeyEnv: 'GEMINI_TEST_KEY' } },
        routes: [...config.routes, { model: 'via-gemini', interfaces: ['responses', 'messages', 'chat', 'gemini'], targets: [{ upstream: 'gemini', model: 'gemini-3-pro-preview' }] }],
      }),
      { environment: { GEMINI_TEST_KEY: UPSTREAM_KEY } },
    );
  });
  afterAll(async () => {
    await server?.close(1_000);
    await upstream?.close();
  });
  const clients = () => protocolClients(server);

  it.each(CLIENTS)('serves a %s client, whole and streamed, at generateContent and streamGenerateContent?alt=sse', async client => {
    const before = upstream.calls.length;
    for (const stream of [false, true]) expect(await clients().ask(client, 'via-gemini', stream, 'Name a lighthouse')).toMatch(/^echo: Name a lighthouse/);
    const calls = upstream.calls.slice(before);
    expect(calls.map(call => [call.model, call.method, call.query])).toEqual([
      ['gemini-3-pro-preview', 'generateContent', ''],
      ['gemini-3-pro-preview', 'streamGenerateContent', '?alt=sse'],
    ]);
    expect(calls.every(call => call.key === UPSTREAM_KEY && call.authorization === undefined)).toBe(true);
    expect(server.recentUsage().at(-1)).toMatchObject({
      upstream: 'gemini',
      status: 200,
      usage: { inputTokens: 120, outputTokens: 15, cacheReadTokens: 64, reasoningTokens: 6 },
    });
  });

  it('completes a Messages tool round trip, the signature replayed on the function call it came with', async () => {
    const anthropic = clients().anthropic();
    const tools = [{ name: weather.name, description: weather.description, input_schema: weather.schema as Anthropic.Tool.InputSchema }];
    const question = { role: 'user' as const, content: 'What is the weather in Oslo?' };
    for (const stream of [false, true]) {
      const body = { model: 'via-gemini', max_tokens: 256, tools, messages: [question] };
      const call = stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
      expect(call.stop_reason).toBe('tool_use');
      const toolUse = call.content.find(block => block.type === 'tool_use')!;
      expect(toolUse).toMatchObject({ name: 'get_weather', input: { city: 'Oslo' } });
      const answer = await anthropic.messages.create({
        ...body,
        messages: [question, { role: 'assistant', content: call.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'Sunny' }] }],
      });
      // The answer's own signature comes as a thinking block without text, for the next turn to replay.
      expect(answer.content).toEqual([
        { type: 'thinking', thinking: '', signature: expect.stringMatching(/^sig-/) },
        expect.objectContaining({ type: 'text', text: 'Result: {"output":"Sunny"}' }),
      ]);
      const replayed = upstream.calls.at(-1)!.body.contents![1]!;
      expect(replayed).toEqual({ role: 'model', parts: [{ functionCall: { id: toolUse.id, name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: expect.stringMatching(/^sig-/) }] });
    }
  });

  it('completes Responses and Chat tool round trips: a signature carried in encrypted reasoning, else Google’s marker for a call it did not make', async () => {
    const openai = clients().openai();
    const tools = [{ type: 'function' as const, name: weather.name, parameters: weather.schema, strict: false }];
    const first = await openai.responses.create({ model: 'via-gemini', input: 'Weather in Oslo?', tools, store: false, include: ['reasoning.encrypted_content'] });
    const call = first.output.find(item => item.type === 'function_call')!;
    const followUp = [...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output' as const, call_id: call.type === 'function_call' ? call.call_id : '', output: 'Sunny' }];
    const answer = await openai.responses.create({ model: 'via-gemini', input: [{ role: 'user', content: 'Weather in Oslo?' }, ...followUp], tools, store: false });
    expect(answer.output_text).toBe('Result: {"output":"Sunny"}');
    expect(upstream.calls.at(-1)!.body.contents![1]!.parts![0]!.thoughtSignature).toMatch(/^sig-/);

    const chatTools = [{ type: 'function' as const, function: { name: weather.name, parameters: weather.schema } }];
    const question = { role: 'user' as const, content: 'Weather in Oslo?' };
    const asked = (await openai.chat.completions.create({ model: 'via-gemini', messages: [question], tools: chatTools })).choices[0]!.message;
    const toolCall = asked.tool_calls![0]!;
    const chatAnswer = await openai.chat.completions.create({
      model: 'via-gemini',
      tools: chatTools,
      messages: [question, { role: 'assistant', tool_calls: asked.tool_calls! }, { role: 'tool', tool_call_id: toolCall.id, content: 'Sunny' }],
    });
    expect(chatAnswer.choices[0]!.message.content).toBe('Result: {"output":"Sunny"}');
    expect(upstream.calls.at(-1)!.body.contents![1]!.parts![0]!.thoughtSignature).toBe('skip_thought_signature_validator');
  });

  it('completes a Gemini tool round trip with thoughts, safety settings forwarded', async () => {
    const gemini = clients().gemini();
    const safetySettings = [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT' as never, threshold: 'BLOCK_ONLY_HIGH' as never }];
    const config = { tools: [{ functionDeclarations: [{ name: weather.name, parametersJsonSchema: weather.schema }] }], safetySettings, thinkingConfig: { includeThoughts: true } };
    const first = await gemini.models.generateContent({ model: 'via-gemini', contents: 'Weather in Oslo?', config });
    expect(first.candidates![0]!.content!.parts).toEqual([
      { text: 'Deciding which tool to call.', thought: true },
      { functionCall: { id: expect.any(String), name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: expect.stringMatching(/^sig-/) },
    ]);
    expect(upstream.calls.at(-1)!.body.safetySettings).toEqual(safetySettings);
    const call = first.functionCalls![0]!;
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
      first.candidates![0]!.content!,
      { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: 'Sunny' } } }] },
    ];
    const answer = await gemini.models.generateContent({ model: 'via-gemini', contents: history, config });
    expect(answer.text).toBe('Result: {"output":"Sunny"}');
  });

  it('drops safety settings with a warning on a route whose upstream speaks another protocol', async () => {
    const response = await fetch(`${server.url}/v1beta/models/sim-via-chat:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': server.demoKey },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-signalbox-warnings')).toContain('safetySettings');
  });

  it("reports the upstream's refusal of a signature it never issued as its 400, in the client's envelope", async () => {
    const failure = await clients()
      .gemini()
      .models.generateContent({
        model: 'via-gemini',
        contents: [
          { role: 'user', parts: [{ text: 'Weather?' }] },
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} }, thoughtSignature: 'forged' }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'Sunny' } } }] },
        ],
      })
      .catch((error: unknown) => error as { status: number; message: string });
    expect(failure).toMatchObject({ status: 400 });
    expect(JSON.parse((failure as { message: string }).message)).toMatchObject({ error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('Corrupted thought signature') } });
  });
});
