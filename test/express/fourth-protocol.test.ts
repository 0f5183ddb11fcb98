import type { SSEMessage } from '@signalbox/core';
import { createSimulator } from '@signalbox/simulator';
import express from 'express';
import OpenAI from 'openai';
import { builtInCodecs, ConfigError, createGateway, systemClock, type Gateway, type GatewayConfigInput } from 'signalbox';
import { createKeyedStore } from '../helpers/create-keyed-store';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';
import { postForSSE } from '../helpers/read-sse';
import { startToyUpstream, type ToyUpstream } from '../helpers/start-toy-upstream';
import { TOY_REQUEST_ID_HEADER, toyCodec } from '../helpers/toy-codec';

/**
 * One more protocol, written entirely in test code (`test/helpers/toy-codec`), plugged in next to
 * the built-in codecs through `createGateway({ codecs })` alone: its endpoint, credential,
 * error envelope, request-id header, models list, 404s and config checks all come from its codec,
 * with no change to the engine or the Express package. Its clients reach Chat Completions and
 * Messages upstreams through the IR, and a toy upstream serves the built-in interfaces.
 */
describe('a toy fourth protocol plugged in with the built-in codecs', () => {
  const simulator = createSimulator();
  const upstreamKey = `toy-upstream-${Math.random().toString(36).slice(2)}`;
  const prompt = 'Describe how a railway signalbox sorts freight cars';
  let toyUpstream: ToyUpstream;
  let gateway: Gateway;
  let host: LoopbackServer;
  let key: string;

  const configFor = (simulatorURL: string, toyURL: string): GatewayConfigInput => ({
    upstreams: {
      simChat: { protocol: 'openai-chat', baseURL: `${simulatorURL}/v1` },
      simMessages: { protocol: 'anthropic-messages', baseURL: simulatorURL },
      toy: { protocol: 'toy-text', baseURL: toyURL, apiKeyEnv: 'TOY_UPSTREAM_KEY' },
    },
    routes: [
      { model: 'toy-via-chat', interfaces: ['toy', 'chat'], targets: [{ upstream: 'simChat', model: 'sim-chat' }] },
      { model: 'toy-via-messages', interfaces: ['toy', 'messages'], targets: [{ upstream: 'simMessages', model: 'sim-messages' }] },
      { model: 'chat-only', interfaces: ['chat'], targets: [{ upstream: 'simChat', model: 'sim-chat' }] },
      { model: 'toy-native', interfaces: ['toy', 'chat'], targets: [{ upstream: 'toy', model: 'toy-1' }] },
    ],
    keepAliveMs: 0,
  });

  beforeAll(async () => {
    const { url: simulatorURL } = await simulator.listen(0, '127.0.0.1');
    toyUpstream = await startToyUpstream();
    const keyed = await createKeyedStore();
    key = keyed.key;
    gateway = createGateway({
      config: configFor(simulatorURL, toyUpstream.url),
      codecs: [...builtInCodecs, toyCodec],
      store: keyed.store,
      environment: { TOY_UPSTREAM_KEY: upstreamKey },
      // Retries of a busy upstream happen at once instead of after a real backoff.
      clock: { ...systemClock, sleep: async () => undefined },
    });
    const app = express();
    app.use(gateway);
    host = await listenOnLoopback(app);
  });
  afterAll(async () => {
    await host.close();
    await gateway.close();
    await toyUpstream.close();
    await simulator.close();
  });

  const bearer = (secret = key) => ({ authorization: `Bearer ${secret}` });

  async function generate(body: unknown, headers: Record<string, string> = bearer()) {
    const response = await fetch(`${host.url}/v1/toy/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  }

  /** The text of a toy stream, after checking it is token frames and exactly one final done frame. */
  function toyStreamText(messages: readonly SSEMessage[]): { text: string; done: unknown } {
    const frames = messages.filter(message => message.event !== undefined);
    expect(frames.length).toBeGreaterThan(2);
    expect(frames.slice(0, -1).every(frame => frame.event === 'token')).toBe(true);
    expect(frames.at(-1)!.event).toBe('done');
    const text = frames.slice(0, -1).map(frame => (JSON.parse(frame.data) as { text: string }).text).join('');
    return { text, done: JSON.parse(frames.at(-1)!.data) };
  }

  async function chatText(model: string): Promise<string> {
    const openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: key, maxRetries: 0, timeout: 15_000 });
    const completion = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] });
    return completion.choices[0]!.message.content!;
  }

  describe('toy clients, through the IR to built-in upstreams', () => {
    it.each(['toy-via-chat', 'toy-via-messages'])('answers a JSON request on %s in the toy shape', async model => {
      const response = await generate({ model, prompt });
      expect(response.status).toBe(200);
      expect(response.headers.get(TOY_REQUEST_ID_HEADER)).toMatch(/^req_[A-Za-z0-9]{24}$/);
      expect(Object.keys(response.body).sort()).toEqual(['finish', 'id', 'model', 'text']);
      expect(response.body).toMatchObject({ model, finish: 'stop' });
      expect(response.body.id).toMatch(/^toy_/);
      // The simulated model answers a prompt the same way whatever protocol carries it.
      expect(response.body.text).toBe(await chatText('toy-via-chat'));
      expect((response.body.text as string).startsWith('Describe how a')).toBe(true);
    });

    it.each(['toy-via-chat', 'toy-via-messages'])('streams %s as token frames ending with done', async model => {
      const streamed = await postForSSE(`${host.url}/v1/toy/generate`, bearer(), { model, prompt, stream: true });
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(streamed.headers.get(TOY_REQUEST_ID_HEADER)).toMatch(/^req_/);
      const { text, done } = toyStreamText(streamed.messages);
      expect(done).toEqual({ finish: 'stop' });
      expect(text).toBe((await generate({ model, prompt })).body.text);
    });

  });

  describe('refusals in the toy envelope, with the request id in x-toy-request-id', () => {
    function expectToyFailure(response: Awaited<ReturnType<typeof generate>>, status: number, code: string) {
      expect(response.status).toBe(status);
      expect(Object.keys(response.body)).toEqual(['failure']);
      const failure = response.body.failure as Record<string, string>;
      expect(Object.keys(failure).sort()).toEqual(['code', 'message', 'request_id']);
      expect(failure.code).toBe(code);
      expect(failure.request_id).toMatch(/^req_/);
      expect(response.headers.get(TOY_REQUEST_ID_HEADER)).toBe(failure.request_id);
      expect(response.headers.get('x-request-id')).toBeNull();
      return failure;
    }

    it('refuses a wrong key with 401 API_KEY_INVALID and no key with 401 API_KEY_MISSING', async () => {
      expectToyFailure(await generate({ model: 'toy-via-chat', prompt }, bearer('sbx-not-a-key')), 401, 'API_KEY_INVALID');
      expectToyFailure(await generate({ model: 'toy-via-chat', prompt }, {}), 401, 'API_KEY_MISSING');
    });

    it('refuses an unknown model with 404 MODEL_NOT_FOUND', async () => {
      const failure = expectToyFailure(await generate({ model: 'no-such-model', prompt }), 404, 'MODEL_NOT_FOUND');
      expect(failure.message).toContain("'no-such-model'");
    });

    it('refuses a body without a prompt, with an unknown field or that is not JSON with 400', async () => {
      const missing = expectToyFailure(await generate({ model: 'toy-via-chat' }), 400, 'INVALID_REQUEST');
      expect(missing.message).toMatch(/^Invalid request: prompt: /);
      const unknown = expectToyFailure(await generate({ model: 'toy-via-chat', prompt, temperature: 1 }), 400, 'INVALID_REQUEST');
      expect(unknown.message).toContain('temperature');
      expectToyFailure(await generate('{"model":'), 400, 'INVALID_JSON');
    });

    it("refuses the built-in protocols' fields, naming where they belong and the toy's own field for the same thing", async () => {
      const messages = expectToyFailure(await generate({ model: 'toy-via-chat', prompt, messages: [{ role: 'user', content: prompt }] }), 400, 'INVALID_REQUEST');
      expect(messages.message).toBe(
        '`messages` is a field of POST /v1/messages and POST /v1/chat/completions, not of this endpoint (POST /v1/toy/generate): ' +
          'the conversation goes in `prompt`. Send the body to the endpoint it was written for, or rewrite it for this one.',
      );
      const instructions = expectToyFailure(await generate({ model: 'toy-via-chat', prompt, instructions: 'Be brief.' }), 400, 'INVALID_REQUEST');
      expect(instructions.message).toMatch(/^`instructions` is a field of POST \/v1\/responses, not of this endpoint \(POST \/v1\/toy\/generate\): instructions go in `prompt` too\./);
    });

    it('refuses a route that does not serve the toy interface with 400 INTERFACE_NOT_SUPPORTED naming it', async () => {
      const failure = expectToyFailure(await generate({ model: 'chat-only', prompt }), 400, 'INTERFACE_NOT_SUPPORTED');
      expect(failure.message).toBe("The model 'chat-only' does not support the toy interface; call it with POST /v1/chat/completions.");
    });

    it('answers an unknown path under /v1/toy/ with its 404, and the wrong method with the right one', async () => {
      const unknown = await fetch(`${host.url}/v1/toy/nope`, { method: 'POST', headers: bearer() });
      const body = { status: unknown.status, headers: unknown.headers, body: (await unknown.json()) as Record<string, unknown> };
      expect(expectToyFailure(body, 404, 'ENDPOINT_NOT_FOUND').message).toContain('POST /v1/toy/generate');
      const wrongMethod = await fetch(`${host.url}/v1/toy/generate`, { headers: bearer() });
      const wrong = { status: wrongMethod.status, headers: wrongMethod.headers, body: (await wrongMethod.json()) as Record<string, unknown> };
      expect(expectToyFailure(wrong, 404, 'ENDPOINT_NOT_FOUND').message).toContain('Use POST /v1/toy/generate.');
    });
  });

  describe('the gateway surfaces built from the codec list', () => {
    it('lists the toy routes on GET /v1/models for the openai SDK', async () => {
      const openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: key, maxRetries: 0 });
      const models = [];
      for await (const model of openai.models.list()) models.push(model.id);
      expect(models).toEqual(['toy-via-chat', 'toy-via-messages', 'chat-only', 'toy-native']);
    });

    it("serves the toy's own models list at GET /v1/toy/models as a plain list of IDs", async () => {
      const response = await fetch(`${host.url}/v1/toy/models`, { headers: bearer() });
      expect(response.status).toBe(200);
      expect(response.headers.get(TOY_REQUEST_ID_HEADER)).toMatch(/^req_/);
      expect(await response.json()).toEqual({ models: ['toy-via-chat', 'toy-via-messages', 'chat-only', 'toy-native'] });
    });

    it('names the toy endpoints in the 404 of an unknown /v1 path', async () => {
      const response = await fetch(`${host.url}/v1/nope`, { method: 'POST', headers: bearer() });
      expect(response.status).toBe(404);
      const body = (await response.json()) as { code: string; error: { message: string } };
      expect(body.code).toBe('ENDPOINT_NOT_FOUND');
      expect(body.error.message).toBe(
        'No endpoint POST /v1/nope. Endpoints: POST /v1/responses, POST /v1/messages, POST /v1/chat/completions, ' +
          'POST /v1beta/models/{model}:generateContent, POST /v1/models/{model}:generateContent, POST /v1/toy/generate, ' +
          'POST /v1beta/models/{model}:streamGenerateContent, POST /v1/models/{model}:streamGenerateContent, POST /v1/messages/count_tokens, ' +
          'POST /v1beta/models/{model}:countTokens, POST /v1/models/{model}:countTokens, POST /v1/responses/compact, GET /v1/models, ' +
          'GET /v1beta/models, GET /v1/toy/models, GET /v1/responses/{id}, DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items.',
      );
    });

    it('accepts interfaces: [toy] and the toy-text protocol in the config only when the toy codec is given', () => {
      const config: GatewayConfigInput = {
        upstreams: { toy: { protocol: 'toy-text', baseURL: toyUpstream.url } },
        routes: [{ model: 'toy-only', interfaces: ['toy'], targets: [{ upstream: 'toy', model: 'toy-1' }] }],
      };
      let refusal: unknown;
      try {
        createGateway({ config });
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(ConfigError);
      expect((refusal as ConfigError).problems).toEqual([
        "upstreams.toy.protocol: no codec speaks 'toy-text' (known: openai-responses, anthropic-messages, openai-chat, google-gemini)",
        "routes.0.interfaces.0: unknown interface 'toy' (known: responses, messages, chat, gemini)",
      ]);
      const accepted = createGateway({ config, codecs: [...builtInCodecs, toyCodec] });
      expect(accepted.engine.registry.codecOfInterface('toy')).toBe(toyCodec);
      return accepted.close();
    });

    it('refuses the toy prompt on the built-in endpoints, naming the toy endpoint and their own field for the conversation', async () => {
      const messages = await fetch(`${host.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'toy-via-messages', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], prompt }),
      });
      expect(messages.status).toBe(400);
      expect(((await messages.json()) as { error: { message: string } }).error.message).toMatch(
        /^`prompt` is a field of POST \/v1\/toy\/generate, not of this endpoint \(POST \/v1\/messages\): the conversation goes in `messages`\./,
      );
      const openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: key, maxRetries: 0 });
      const chat = await openai.chat.completions
        .create({ model: 'toy-via-chat', messages: [{ role: 'user', content: 'hi' }], prompt } as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .catch((error: unknown) => error);
      expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
      expect((chat as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
        param: 'prompt',
        message: expect.stringMatching(/^`prompt` is a field of POST \/v1\/toy\/generate, not of this endpoint \(POST \/v1\/chat\/completions\): the conversation goes in `messages`\./),
      });
    });

    it('leaves the Responses endpoint its own prompt (a stored template), whatever the toy calls its conversation', async () => {
      const openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: key, maxRetries: 0 });
      const refused = await openai.responses.create({ model: 'toy-via-chat', input: 'hi', prompt: { id: 'pmpt_1' } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'prompt', message: expect.stringContaining('stored prompt templates') });
    });

    it('refuses a toy codec that claims a path another codec has', () => {
      const clash = { ...toyCodec, descriptor: { ...toyCodec.descriptor, generationPath: '/v1/chat/completions' } };
      expect(() => createGateway({ config: configFor('http://127.0.0.1:1', 'http://127.0.0.1:1'), codecs: [...builtInCodecs, clash] })).toThrow(
        'Two codecs claim POST /v1/chat/completions.',
      );
    });
  });

  describe('a toy upstream, through the IR', () => {
    it('answers the openai SDK on Chat Completions, JSON and streaming, with its key and model name', async () => {
      toyUpstream.calls.length = 0;
      const openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: key, maxRetries: 0, timeout: 15_000 });
      const completion = await openai.chat.completions.create({ model: 'toy-native', messages: [{ role: 'user', content: prompt }] });
      expect(completion.model).toBe('toy-native');
      expect(completion.choices[0]?.message.content).toBe(`echo: ${prompt}`);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      const stream = openai.chat.completions.stream({ model: 'toy-native', messages: [{ role: 'user', content: prompt }] });
      const final = await stream.finalChatCompletion();
      expect(final.choices[0]?.message.content).toBe(`echo: ${prompt}`);
      expect(toyUpstream.calls).toEqual([
        { body: { model: 'toy-1', prompt, stream: false }, authorization: `Bearer ${upstreamKey}` },
        { body: { model: 'toy-1', prompt, stream: true }, authorization: `Bearer ${upstreamKey}` },
      ]);
    });

    it('lists what the toy prompt cannot carry in x-signalbox-warnings', async () => {
      const response = await fetch(`${host.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer() },
        body: JSON.stringify({ model: 'toy-native', messages: [{ role: 'user', content: prompt }], temperature: 0.5 }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-signalbox-warnings')).toContain('temperature');
    });

    it('carries the toy finish word length to Chat Completions and back to toy clients', async () => {
      const openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: key, maxRetries: 0, timeout: 15_000 });
      const completion = await openai.chat.completions.create({ model: 'toy-native', messages: [{ role: 'user', content: '[[toy:length]] hello' }] });
      expect(completion.choices[0]?.finish_reason).toBe('length');
      const response = await generate({ model: 'toy-native', prompt: '[[toy:length]] hello' });
      expect(response.body).toMatchObject({ text: 'echo: [[toy:length]] hello', finish: 'length' });
    });

    it('serves a toy client from a toy upstream by translating both ways', async () => {
      const response = await generate({ model: 'toy-native', prompt });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ model: 'toy-native', text: `echo: ${prompt}`, finish: 'stop' });
      const streamed = await postForSSE(`${host.url}/v1/toy/generate`, bearer(), { model: 'toy-native', prompt, stream: true });
      expect(toyStreamText(streamed.messages)).toEqual({ text: `echo: ${prompt}`, done: { finish: 'stop' } });
    });

    it("maps the toy upstream's 503 to UPSTREAM_OVERLOADED after retries, its own code and words kept apart", async () => {
      toyUpstream.calls.length = 0;
      const response = await fetch(`${host.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer() },
        body: JSON.stringify({ model: 'toy-native', messages: [{ role: 'user', content: '[[toy:busy]] hello' }] }),
      });
      expect(response.status).toBe(503);
      const body = (await response.json()) as { code: string; request_id: string; error: { message: string; code: string } };
      expect(body.code).toBe('UPSTREAM_OVERLOADED');
      expect(body.error).toMatchObject({ code: 'busy', message: 'Upstream 503 error: The toy model is busy.' });
      expect(body.request_id).toBe(response.headers.get('x-request-id'));
      expect(body.request_id).toMatch(/^req_/);
      // A busy upstream is retried: the same request reached it three times.
      expect(toyUpstream.calls).toHaveLength(3);
    });

    it('ends a toy stream the upstream cut short with a failure frame, never done', async () => {
      const streamed = await postForSSE(`${host.url}/v1/toy/generate`, bearer(), { model: 'toy-native', prompt: '[[toy:cut]] hello there', stream: true });
      expect(streamed.status).toBe(200);
      const frames = streamed.messages.filter(message => message.event !== undefined);
      expect(frames.map(frame => frame.event)).toEqual(['token', 'token', 'failure']);
      expect(JSON.parse(frames[2]!.data)).toEqual({
        failure: { code: 'UPSTREAM_FAILED', message: 'The upstream stream ended before its terminal event.' },
      });
    });
  });
});
