import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AnthropicV0 from '@anthropic-ai/sdk';
import { createMemoryAccountStore, generateApiKey } from '@signalbox/accounts';
import { createSimulator } from '@signalbox/simulator';
import OpenAI from 'openai';
import { createExistingApp } from '../../examples/mount-existing-app/src';
import { authHeaders, postForSSE } from '../helpers/read-sse';
import { validateResponsesStream } from '../stream-validators';

describe('the gateway mounted under /llm in an existing app', () => {
  const simulator = createSimulator();
  const key = generateApiKey();
  let server: Server;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const { url: simulatorURL } = await simulator.listen();
    const store = createMemoryAccountStore();
    const account = await store.createAccount({ name: 'acme', balanceMicros: 10_000_000 });
    await store.createKey({ accountId: account.id, name: 'host', secret: key });
    const existing = createExistingApp({
      store,
      config: {
        upstreams: { sim: { protocol: 'anthropic-messages', baseURL: simulatorURL } },
        routes: [{ model: 'acme-assistant', interfaces: ['responses', 'messages'], targets: [{ upstream: 'sim', model: 'sim-1' }] }],
      },
    });
    close = existing.close;
    server = existing.app.listen(0, '127.0.0.1');
    await new Promise(resolve => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
    await close();
    await simulator.close();
  });

  it('keeps the host routes working', async () => {
    expect(await (await fetch(`${url}/`)).text()).toBe('Acme app home');
    expect(await (await fetch(`${url}/api/profile`)).json()).toEqual({ name: 'Ada', plan: 'team' });
  });

  it('serves the OpenAI SDK at {host}/llm/v1, JSON and streaming', async () => {
    const openai = new OpenAI({ baseURL: `${url}/llm/v1`, apiKey: key, maxRetries: 0 });
    const response = await openai.responses.create({ model: 'acme-assistant', input: 'hello from the host' });
    expect(response.status).toBe('completed');
    const final = await openai.responses.stream({ model: 'acme-assistant', input: 'hello from the host' }).finalResponse();
    expect(final.output_text).toBe(response.output_text);
    const raw = await postForSSE(`${url}/llm/v1/responses`, authHeaders.responses(key), { model: 'acme-assistant', input: 'x', stream: true });
    expect(validateResponsesStream(raw.messages).violations).toEqual([]);
  });

  it('serves the Anthropic SDK at {host}/llm', async () => {
    const anthropic = new AnthropicV0({ baseURL: `${url}/llm`, apiKey: key, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'acme-assistant', max_tokens: 128, messages: [{ role: 'user', content: 'hello' }] });
    expect(message.stop_reason).toBe('end_turn');
  });

  it('serves the hand-composed endpoint at /internal/ask next to the host parser', async () => {
    const response = await fetch(`${url}/internal/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'acme-assistant', input: 'hello' }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { object: string }).object).toBe('response');
    const refused = await fetch(`${url}/internal/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('API_KEY_MISSING');
  });

  it('answers unknown gateway paths under the prefix in the gateway envelope', async () => {
    const response = await fetch(`${url}/llm/v1/nothing`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: string }).code).toBe('ENDPOINT_NOT_FOUND');
  });
});
