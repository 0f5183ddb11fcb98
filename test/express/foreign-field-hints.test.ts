import express from 'express';
import OpenAI from 'openai';
import { anthropicMessagesCodec, createGateway, type Gateway } from 'signalbox';
import { createKeyedStore } from '../helpers/create-keyed-store';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';

/**
 * The paths a refusal names are the ones the gateway serves where the host mounted it: under its
 * prefix, and only of the codecs it was given. No upstream is called: every request here is refused
 * before routing.
 */
const UNREACHABLE = 'http://127.0.0.1:1';
const messagesBody = { model: 'claude-host', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

async function startHost(mount: (app: express.Express, gateway: Gateway) => void, codecs?: Parameters<typeof createGateway>[0]['codecs']) {
  const keyed = await createKeyedStore();
  const gateway = createGateway({
    config: {
      upstreams: { anthropic: { protocol: 'anthropic-messages', baseURL: UNREACHABLE } },
      routes: [{ model: 'claude-host', interfaces: codecs ? ['messages'] : ['messages', 'responses', 'chat'], targets: [{ upstream: 'anthropic', model: 'claude-1' }] }],
    },
    store: keyed.store,
    ...(codecs && { codecs }),
  });
  const app = express();
  mount(app, gateway);
  const host = await listenOnLoopback(app);
  return {
    host,
    key: keyed.key,
    async close() {
      await host.close();
      await gateway.close();
    },
  };
}

async function postMessages(host: LoopbackServer, path: string, key: string, body: unknown) {
  const response = await fetch(`${host.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  return { status: response.status, message: ((await response.json()) as { error: { message: string } }).error.message };
}

describe('a gateway mounted under /llm', () => {
  let started: Awaited<ReturnType<typeof startHost>>;
  beforeAll(async () => {
    started = await startHost((app, gateway) => app.use('/llm', gateway));
  });
  afterAll(() => started.close());

  it('names the other endpoints and its own under the prefix when it refuses a foreign field', async () => {
    const refused = await postMessages(started.host, '/llm/v1/messages', started.key, { ...messagesBody, max_output_tokens: 16 });
    expect(refused).toEqual({
      status: 400,
      message:
        '`max_output_tokens` is a field of POST /llm/v1/responses, not of this endpoint (POST /llm/v1/messages): the output limit is `max_tokens`. ' +
        'Send the body to the endpoint it was written for, or rewrite it for this one.',
    });
  });

  it('points a Messages-shaped body on Responses to the prefixed Messages and Chat endpoints', async () => {
    const openai = new OpenAI({ baseURL: `${started.host.url}/llm/v1`, apiKey: started.key, maxRetries: 0 });
    const body = { model: 'claude-host', messages: [{ role: 'user', content: 'hi' }] } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    const failure = await openai.responses.create(body).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      param: 'messages',
      message: expect.stringContaining('the body looks like one for POST /llm/v1/messages and POST /llm/v1/chat/completions.'),
    });
  });

  it('tells a Bearer caller who sent x-api-key the prefixed path where that header is read', async () => {
    const response = await fetch(`${started.host.url}/llm/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': started.key },
      body: JSON.stringify({ model: 'claude-host', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'Missing API key: send it as `Authorization: Bearer <API_KEY>`. `x-api-key` is only read on /llm/v1/messages.',
    );
  });
});

describe('a gateway that serves Messages alone', () => {
  let started: Awaited<ReturnType<typeof startHost>>;
  beforeAll(async () => {
    started = await startHost((app, gateway) => app.use(gateway), [anthropicMessagesCodec]);
  });
  afterAll(() => started.close());

  it.each([
    ['a Responses-shaped body', { model: 'claude-host', input: 'hi', instructions: 'Be brief.', max_output_tokens: 16 }, /^Invalid request: max_tokens: Field required/],
    ['Chat fields without max_tokens', { model: 'claude-host', messages: messagesBody.messages, n: 2, stop: ['x'], response_format: { type: 'text' } }, /^Invalid request: max_tokens: Field required/],
  ])('never points %s to an endpoint it does not serve', async (_name, body, message) => {
    const refused = await postMessages(started.host, '/v1/messages', started.key, body);
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(message);
    expect(refused.message).not.toMatch(/\/v1\/(responses|chat)/);
  });
});
