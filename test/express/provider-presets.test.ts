import express from 'express';
import OpenAI from 'openai';
import { createGateway, type Gateway } from 'signalbox';
import { createKeyedStore } from '../helpers/create-keyed-store';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';
import { startStrictChatUpstream, type StrictChatUpstream } from '../helpers/start-strict-chat-upstream';

/**
 * Upstreams named by provider, against a real loopback server: Mistral's preset's quirks keep
 * `stream_options` and `max_completion_tokens` out of every body (encoded from another protocol or
 * a Chat client's own), which the same server refuses from an upstream without them; OpenRouter's
 * attribution headers and each preset's key variable reach the upstream.
 */
let upstream: StrictChatUpstream;
let host: LoopbackServer;
let gateway: Gateway;
let openai: OpenAI;

const environment = { MISTRAL_API_KEY: 'mistral-key-for-test', OPENROUTER_API_KEY: 'openrouter-key-for-test' };

beforeAll(async () => {
  upstream = await startStrictChatUpstream();
  const keyed = await createKeyedStore();
  const baseURL = `${upstream.url}/v1`;
  gateway = createGateway({
    config: {
      upstreams: {
        mistral: { provider: 'mistral', baseURL },
        unadjusted: { protocol: 'openai-chat', baseURL },
        openrouter: { provider: 'openrouter', baseURL, headers: { 'HTTP-Referer': 'https://app.example', 'X-OpenRouter-Title': 'Example App' } },
      },
      routes: [
        { model: 'mistral-small', interfaces: ['responses', 'chat'], targets: [{ upstream: 'mistral', model: 'mistral-small-latest' }] },
        { model: 'unadjusted', interfaces: ['responses'], targets: [{ upstream: 'unadjusted', model: 'mistral-small-latest' }] },
        { model: 'routed', interfaces: ['chat'], targets: [{ upstream: 'openrouter', model: 'mistralai/mistral-small' }] },
      ],
    },
    store: keyed.store,
    environment,
  });
  const app = express();
  app.use(gateway);
  host = await listenOnLoopback(app);
  openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: keyed.key, maxRetries: 0 });
});

afterAll(async () => {
  await host.close();
  await gateway.close();
  await upstream.close();
});

beforeEach(() => {
  upstream.calls.length = 0;
});

describe('the mistral preset', () => {
  it('streams a Responses request through an upstream that refuses stream_options and max_completion_tokens', async () => {
    const stream = await openai.responses.create({ model: 'mistral-small', input: 'hi', max_output_tokens: 64, stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    let text = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(text).toBe('hello there');
    expect(completed?.usage).toMatchObject({ input_tokens: 5, output_tokens: 2 });
    const [call] = upstream.calls;
    expect(call?.body).not.toHaveProperty('stream_options');
    expect(call?.body).not.toHaveProperty('max_completion_tokens');
    expect(call?.body.max_tokens).toBe(64);
    expect(call?.headers.authorization).toBe(`Bearer ${environment.MISTRAL_API_KEY}`);
  });

  it("keeps them out of a Chat client's own body passed through, and its usage chunk still arrives", async () => {
    const stream = await openai.chat.completions.create({
      model: 'mistral-small',
      messages: [{ role: 'user', content: 'hi' }],
      max_completion_tokens: 32,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map(chunk => chunk.choices[0]?.delta.content ?? '').join('')).toBe('hello there');
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2 });
    expect(upstream.calls[0]?.body).toMatchObject({ model: 'mistral-small-latest', max_tokens: 32 });
    expect(upstream.calls[0]?.body).not.toHaveProperty('stream_options');
    expect(upstream.calls[0]?.body).not.toHaveProperty('max_completion_tokens');
  });

  it('is what makes the difference: the same server refuses the same request from an upstream without quirks', async () => {
    const failure = await openai.responses.create({ model: 'unadjusted', input: 'hi', max_output_tokens: 64, stream: true }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(upstream.calls[0]?.body).toHaveProperty('stream_options');
    expect(upstream.calls[0]?.body).toHaveProperty('max_completion_tokens');
  });
});

describe('the openrouter preset', () => {
  it('sends the configured attribution headers and the key from OPENROUTER_API_KEY', async () => {
    const answer = await openai.chat.completions.create({ model: 'routed', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]?.message.content).toBe('hello there');
    const headers = upstream.calls[0]?.headers;
    expect(headers).toMatchObject({
      'http-referer': 'https://app.example',
      'x-openrouter-title': 'Example App',
      authorization: `Bearer ${environment.OPENROUTER_API_KEY}`,
    });
    expect(upstream.calls[0]?.body.model).toBe('mistralai/mistral-small');
  });
});
