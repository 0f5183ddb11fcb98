import { createSimulator } from '@signalbox/simulator';
import express from 'express';
import OpenAI from 'openai';
import { createGateway, type Gateway } from 'signalbox';
import { createKeyedStore } from '../helpers/create-keyed-store';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';

/**
 * The gateway mounted at `/` of a host app, between the host's own routes: it claims only its own
 * endpoints (and 404s under `/v1`), so routes registered before and after it, the host's own body
 * parser and the host's own 404 all keep working.
 */
describe('createGateway from signalbox mounted at / between host routes', () => {
  const simulator = createSimulator();
  let gateway: Gateway;
  let host: LoopbackServer;
  let key: string;

  beforeAll(async () => {
    const { url: simulatorURL } = await simulator.listen(0, '127.0.0.1');
    const keyed = await createKeyedStore();
    key = keyed.key;
    gateway = createGateway({
      config: {
        upstreams: { sim: { protocol: 'openai-chat', baseURL: `${simulatorURL}/v1` } },
        routes: [{ model: 'host-assistant', interfaces: ['responses', 'chat', 'messages'], targets: [{ upstream: 'sim', model: 'sim-1' }] }],
      },
      store: keyed.store,
    });
    const app = express();
    app.get('/before', (_request, response) => {
      response.type('text/plain').send('host route before the gateway');
    });
    app.use(gateway);
    app.use(express.json());
    app.get('/after', (_request, response) => {
      response.json({ route: 'after' });
    });
    app.post('/api/things', (request, response) => {
      response.status(201).json({ created: request.body });
    });
    host = await listenOnLoopback(app);
  });
  afterAll(async () => {
    await host.close();
    await gateway.close();
    await simulator.close();
  });

  it('lets the host route registered before it answer', async () => {
    const response = await fetch(`${host.url}/before`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('host route before the gateway');
    expect(response.headers.get('x-request-id')).toBeNull();
  });

  it('passes GET /after on to the host route registered after it', async () => {
    const response = await fetch(`${host.url}/after`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ route: 'after' });
    expect(response.headers.get('x-request-id')).toBeNull();
  });

  it('leaves the body of POST /api/things to the host parser registered after it', async () => {
    const response = await fetch(`${host.url}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'widget', count: 3 }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ created: { name: 'widget', count: 3 } });
  });

  it("leaves a path outside /v1 that nobody serves to the host's own 404", async () => {
    const response = await fetch(`${host.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('Cannot GET /nowhere');
  });

  it('serves the openai SDK at {host}/v1: Responses and Chat Completions through the simulator', async () => {
    const openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: key, maxRetries: 0, timeout: 15_000 });
    const response = await openai.responses.create({ model: 'host-assistant', input: 'Say hello from the root mount' });
    expect(response.status).toBe('completed');
    expect(response.model).toBe('host-assistant');
    expect(response.output_text.startsWith('Say hello from')).toBe(true);
    const completion = await openai.chat.completions.create({
      model: 'host-assistant',
      messages: [{ role: 'user', content: 'Say hello from the root mount' }],
    });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.choices[0]?.message.content).toBe(response.output_text);
    const models = [];
    for await (const model of openai.models.list()) models.push(model.id);
    expect(models).toEqual(['host-assistant']);
  });

  it('answers an unknown /v1/nope with its JSON 404 listing its endpoints', async () => {
    const response = await fetch(`${host.url}/v1/nope`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { code: string; request_id: string; error: { type: string; message: string } };
    expect(body.code).toBe('ENDPOINT_NOT_FOUND');
    expect(body.request_id).toBe(response.headers.get('x-request-id'));
    expect(body.error.message).toContain('No endpoint POST /v1/nope.');
    expect(body.error.message).toContain('POST /v1/responses, POST /v1/messages, POST /v1/chat/completions');
  });
});
