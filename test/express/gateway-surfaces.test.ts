import AnthropicV0 from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

describe('gateway surfaces besides generation', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  const bearer = () => ({ authorization: `Bearer ${server.demoKey}` });

  it('lists the routes in config order for the OpenAI SDK', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });
    const models = [];
    for await (const model of openai.models.list()) models.push(model.id);
    expect(models).toEqual(server.models);
    expect(models[0]).toBe('signalbox-sim');
  });

  it('lists the routes in Anthropic shape for the Anthropic SDK', async () => {
    const anthropic = new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });
    const page = await anthropic.models.list();
    expect(page.data.map(model => model.id)).toEqual(server.models);
    expect(page.data[0]?.type).toBe('model');
  });

  it('sends x-request-id on every answer and request-id on Messages answers', async () => {
    const ok = await request(server.url).post('/v1/responses').set(bearer()).send({ model: 'signalbox-sim', input: 'hi' });
    expect(ok.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9]{24}$/);
    expect(ok.headers['request-id']).toBeUndefined();
    const refused = await request(server.url).post('/v1/messages').send({});
    expect(refused.headers['x-request-id']).toMatch(/^req_/);
    expect(refused.headers['request-id']).toBe(refused.headers['x-request-id']);
    expect(refused.body.request_id).toBe(refused.headers['x-request-id']);
  });

  it('answers a duplicated /v1 with a 404 that names the right base URL for each SDK', async () => {
    const anthropic = new AnthropicV0({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });
    const failure = await anthropic.messages
      .create({ model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .catch(error => error);
    expect(failure.status).toBe(404);
    expect(failure.error.type).toBe('error');
    expect(failure.error.error.type).toBe('not_found_error');
    expect(failure.error.code).toBe('ENDPOINT_NOT_FOUND');
    expect(failure.message).toMatch(/repeats \/v1/);
    expect(failure.requestID).toMatch(/^req_/);
  });

  it('answers a base URL without /v1 with a 404 saying so, in the OpenAI envelope', async () => {
    const openai = new OpenAI({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });
    const failure = await openai.responses.create({ model: 'signalbox-sim', input: 'hi' }).catch(error => error);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect(failure.error.message).toMatch(/lacks \/v1/);
    expect(failure.requestID).toMatch(/^req_/);
  });

  it('answers the wrong method on a known path with a 404 naming the right one', async () => {
    const response = await request(server.url).get('/v1/responses').set(bearer());
    expect(response.status).toBe(404);
    expect(response.body.error.message).toMatch(/Use POST \/v1\/responses/);
  });

  it.each([
    ['no key', {}, 401, 'API_KEY_MISSING'],
    ['a wrong key', { authorization: 'Bearer sbx-wrong' }, 401, 'API_KEY_INVALID'],
  ])('refuses %s on Responses with the OpenAI envelope', async (_case, headers, status, code) => {
    const response = await request(server.url).post('/v1/responses').set(headers).send({ model: 'signalbox-sim', input: 'hi' });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ code, error: { type: 'authentication_error' }, request_id: response.headers['x-request-id'] });
  });

  it('refuses Bearer on Messages with a message naming x-api-key', async () => {
    const response = await request(server.url)
      .post('/v1/messages')
      .set({ ...bearer(), 'anthropic-version': '2023-06-01' })
      .send({ model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ type: 'error', code: 'API_KEY_MISSING', error: { type: 'authentication_error' } });
    expect(response.body.error.message).toContain('x-api-key');
  });

  it.each([
    ['missing', {}, 'VERSION_HEADER_MISSING'],
    ['not accepted', { 'anthropic-version': '2026-10-21' }, 'VERSION_HEADER_INVALID'],
  ])('refuses a version header that is %s with 400', async (_case, headers, code) => {
    const response = await request(server.url)
      .post('/v1/messages')
      .set({ 'x-api-key': server.demoKey, ...headers })
      .send({ model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: 'error', code, error: { type: 'invalid_request_error' } });
  });

  it('accepts the spec name provider-version as an alias', async () => {
    const response = await request(server.url)
      .post('/v1/messages')
      .set({ 'x-api-key': server.demoKey, 'provider-version': '2023-06-01' })
      .send({ model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(200);
    expect(response.body.type).toBe('message');
  });

  it('refuses malformed JSON with 400 and a body over the limit with 413, never 500', async () => {
    const malformed = await request(server.url).post('/v1/responses').set(bearer()).set('content-type', 'application/json').send('{"model":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('INVALID_JSON');
    const huge = await request(server.url)
      .post('/v1/responses')
      .set(bearer())
      .send({ model: 'signalbox-sim', input: 'x'.repeat(5 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('REQUEST_TOO_LARGE');
  });

  it('refuses a Messages-shaped body on /v1/responses with a hint, and an unknown model with 404', async () => {
    const wrongShape = await request(server.url)
      .post('/v1/responses')
      .set(bearer())
      .send({ model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.body.error.message).toMatch(/\/v1\/messages/);
    const unknown = await request(server.url).post('/v1/responses').set(bearer()).send({ model: 'no-such-model', input: 'hi' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'MODEL_NOT_FOUND', error: { code: 'model_not_found', param: 'model' } });
  });

  it('records every request, refused ones included', async () => {
    const before = server.recentUsage().length;
    await request(server.url).post('/v1/responses').send({});
    await request(server.url).post('/v1/responses').set(bearer()).send({ model: 'signalbox-sim', input: 'count me' });
    await new Promise(resolve => setImmediate(resolve));
    const records = server.recentUsage().slice(before);
    expect(records.map(record => [record.status, record.outcome])).toEqual([
      [401, 'error'],
      [200, 'completed'],
    ]);
    expect(records[1]?.usage?.outputTokens).toBeGreaterThan(0);
    expect(records[1]?.upstream).toBe('simulator-messages');
  });
});

describe('POST /v1/messages/count_tokens', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  it('gives the documented estimate (characters / 4) through the Anthropic SDK, marked as an estimate', async () => {
    const anthropic = new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });
    const text = 'count these characters please, all of them';
    const counted = await anthropic.messages.countTokens({ model: 'signalbox-sim', system: 'be brief', messages: [{ role: 'user', content: text }] }).withResponse();
    expect(counted.data.input_tokens).toBe(Math.ceil(('be brief'.length + text.length) / 4));
    expect(counted.response.headers.get('x-signalbox-warnings')).toBe('input_tokens (estimate)');
  });

  it('authenticates and routes like a generation', async () => {
    const anonymous = await request(server.url).post('/v1/messages/count_tokens').set('anthropic-version', '2023-06-01').send({});
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'API_KEY_MISSING']);
    const unknown = await request(server.url)
      .post('/v1/messages/count_tokens')
      .set({ 'x-api-key': server.demoKey, 'anthropic-version': '2023-06-01' })
      .send({ model: 'sim-responses-only', messages: [{ role: 'user', content: 'hi' }] });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'INTERFACE_NOT_SUPPORTED']);
    const withMaxTokens = await request(server.url)
      .post('/v1/messages/count_tokens')
      .set({ 'x-api-key': server.demoKey, 'anthropic-version': '2023-06-01' })
      .send({ model: 'signalbox-sim', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    expect([withMaxTokens.status, withMaxTokens.body.error.type]).toEqual([400, 'invalid_request_error']);
  });
});

describe('translation warnings header', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  const chat = (model: string, extra: Record<string, unknown>) =>
    request(server.url)
      .post('/v1/chat/completions')
      .set({ authorization: `Bearer ${server.demoKey}` })
      .send({ model, messages: [{ role: 'user', content: 'hi' }], ...extra });

  it("lists a client's protocol-only fields that an upstream of another protocol cannot take", async () => {
    const translated = await chat('sim-via-messages', { presence_penalty: 0.5, seed: 7, stream_options: { include_usage: true } });
    expect(translated.status).toBe(200);
    const warnings = translated.headers['x-signalbox-warnings'] ?? '';
    expect(warnings).toContain('presence_penalty (unsupported-field)');
    expect(warnings).toContain('seed (unsupported-field)');
    expect(warnings).not.toContain('stream_options'); // honoured on the client side
  });

  it('says nothing when the upstream speaks the client protocol, which receives them', async () => {
    const same = await chat('sim-via-chat', { presence_penalty: 0.5, seed: 7 });
    expect(same.status).toBe(200);
    expect(same.headers['x-signalbox-warnings']).toBeUndefined();
  });

  it("reports a Messages client's top_k sent to an OpenAI upstream", async () => {
    const response = await request(server.url)
      .post('/v1/messages')
      .set({ 'x-api-key': server.demoKey, 'anthropic-version': '2023-06-01' })
      .send({ model: 'sim-via-responses', max_tokens: 64, top_k: 5, messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(200);
    expect(response.headers['x-signalbox-warnings']).toContain('top_k (unsupported-field)');
  });
});
