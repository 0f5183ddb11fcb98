import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeSSEChunks } from '@signalbox/sse/testing';
import request from 'supertest';
import { createOpenAPISchemaChecker, operationSchemaPointer, type OpenAPISchemaChecker } from '../helpers/openapi-schema-checker';
import { authHeaders, geminiAuthHeaders, postForSSE } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { validateOpenAPIDocument } from '../helpers/validate-openapi-document';

type OpenAPIDocument = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { security?: Record<string, string[]>[]; parameters?: { $ref?: string; name?: string }[]; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }> }>>;
  components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }>; securitySchemes: Record<string, Record<string, string>>; parameters: Record<string, { name: string; required: boolean; schema: { enum?: string[] } }> };
};

const PACKAGES = join(__dirname, '../../packages');
const fixture = (codec: string, name: string): Record<string, unknown> => JSON.parse(readFileSync(join(PACKAGES, codec, 'src/__fixtures__', name), 'utf8')) as Record<string, unknown>;
const fixtureNames = (codec: string, suffix: string): string[] => readdirSync(join(PACKAGES, codec, 'src/__fixtures__')).filter(name => name.endsWith(suffix));
const streamEvents = (codec: string, name: string): unknown[] =>
  decodeSSEChunks([readFileSync(join(PACKAGES, codec, 'src/__fixtures__', name))])
    .filter(message => message.data !== '[DONE]')
    .map(message => JSON.parse(message.data) as unknown);

/** The model every example is sent to: a route of the example server on every interface. */
const MODEL = 'signalbox-sim';

describe('the OpenAPI document at GET /openapi.json of the example server', () => {
  let server: TestGateway;
  let document: OpenAPIDocument;
  let checker: OpenAPISchemaChecker;
  const request200 = (path: string, method: string) => operationSchemaPointer(path, method, { request: 'application/json' });
  const answer = (path: string, method: string, status = '200', mediaType?: string) => operationSchemaPointer(path, method, { status, ...(mediaType && { mediaType }) });
  const admin = () => ({ authorization: `Bearer ${server.adminToken}` });

  beforeAll(async () => {
    server = await startTestGateway();
    const response = await request(server.url).get('/openapi.json');
    document = response.body as OpenAPIDocument;
    checker = createOpenAPISchemaChecker(document);
  });
  afterAll(() => server.close(1_000));

  it('is served without a key as JSON, the same document on every request', async () => {
    const first = await request(server.url).get('/openapi.json');
    const second = await request(server.url).get('/openapi.json');
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.text).toBe(first.text);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/' }]);
  });

  it('validates as OpenAPI 3.1 with @seriousme/openapi-schema-validator in strict mode', () => {
    const result = validateOpenAPIDocument(document);
    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
    const broken = { ...document, paths: { ...document.paths, 'v1/without-leading-slash': {} } };
    expect(validateOpenAPIDocument(broken).valid).toBe(false);
  });

  it('lists the endpoints the gateway mounted and the admin API, and nothing else', () => {
    const mounted = server.gateway.engine.registry.endpoints.map(endpoint => `${endpoint.method.toLowerCase()} ${endpoint.path}`);
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map(method => `${method} ${path}`));
    expect(documented.filter(entry => !entry.includes(' /admin/'))).toEqual(expect.arrayContaining(mounted));
    expect(documented.filter(entry => !entry.includes(' /admin/'))).toHaveLength(mounted.length);
    expect(mounted).toEqual(
      expect.arrayContaining(['post /v1/responses', 'post /v1/messages', 'post /v1/chat/completions', 'post /v1/messages/count_tokens', 'post /v1/responses/compact', 'get /v1/models', 'get /v1/responses/{id}', 'delete /v1/responses/{id}', 'get /v1/responses/{id}/input_items']),
    );
    expect(documented).toEqual(expect.arrayContaining(['get /admin/usage', 'get /admin/usage/summary', 'post /admin/keys', 'patch /admin/keys/{id}', 'get /admin/accounts/{id}/balance-events']));
  });

  it('offers the route table\'s model IDs as the enum of every request\'s model', () => {
    const models = server.gateway.engine.routes.map(route => route.model);
    for (const name of ['ResponsesRequest', 'MessagesRequest', 'ChatCompletionRequest', 'MessagesTokenCountRequest']) {
      expect(document.components.schemas[name]?.properties?.model?.enum).toEqual(models);
    }
  });

  it('describes each interface\'s credential: Bearer for Responses and Chat, x-api-key with anthropic-version for Messages', () => {
    expect(document.paths['/v1/responses']!.post!.security).toEqual([{ openAIBearer: [] }]);
    expect(document.paths['/v1/chat/completions']!.post!.security).toEqual([{ openAIBearer: [] }]);
    expect(document.paths['/v1/messages']!.post!.security).toEqual([{ anthropicApiKey: [] }]);
    expect(document.paths['/v1/models']!.get!.security).toEqual([{ openAIBearer: [] }, { anthropicApiKey: [] }]);
    expect(document.paths['/admin/usage']!.get!.security).toEqual([{ consoleToken: [] }]);
    expect(document.components.securitySchemes).toMatchObject({
      openAIBearer: { type: 'http', scheme: 'bearer' },
      anthropicApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      consoleToken: { type: 'http', scheme: 'bearer' },
    });
    expect(document.components.parameters.AnthropicVersion).toMatchObject({ name: 'anthropic-version', required: true, schema: { enum: ['2023-06-01'] } });
  });

  it('describes streamed answers as text/event-stream, request ids on every answer and Retry-After on 429 and 503', () => {
    for (const path of ['/v1/responses', '/v1/messages', '/v1/chat/completions']) {
      const responses = document.paths[path]!.post!.responses;
      expect(Object.keys(responses['200']!.content!)).toEqual(['application/json', 'text/event-stream']);
      expect(Object.keys(responses['200']!.headers!)).toContain('x-request-id');
      expect(Object.keys(responses['429']!.headers!)).toEqual(expect.arrayContaining(['retry-after', 'x-request-id']));
      expect(Object.keys(responses['503']!.headers!)).toEqual(expect.arrayContaining(['retry-after', 'x-request-id']));
      expect(Object.keys(responses['401']!.headers!)).not.toContain('retry-after');
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '413', '500', '502', '504']));
    }
    expect(Object.keys(document.paths['/v1/messages']!.post!.responses['200']!.headers!)).toEqual(['x-request-id', 'request-id']);
    // Only endpoints that call an upstream list the upstream's failures (502 and 504 carry nothing else).
    expect(Object.keys(document.paths['/v1/models']!.get!.responses)).not.toEqual(expect.arrayContaining(['502']));
    expect(Object.keys(document.paths['/v1/responses/{id}']!.get!.responses)).not.toEqual(expect.arrayContaining(['504']));
  });

  it('accepts the codecs\' fixture requests sent to a route, and refuses a model that is no route or a Messages body without max_tokens', () => {
    const responses = { ...fixture('codec-openai-responses', 'agent-turn.1.request.json'), model: MODEL };
    const chat = { ...fixture('codec-openai-chat', 'everything.1.request.json'), model: MODEL };
    expect(checker.errorsOf(request200('/v1/responses', 'post'), responses)).toEqual([]);
    expect(checker.errorsOf(request200('/v1/chat/completions', 'post'), chat)).toEqual([]);
    for (const name of fixtureNames('codec-anthropic-messages', '.request.json')) {
      const messages: Record<string, unknown> = { ...fixture('codec-anthropic-messages', name), model: MODEL };
      expect(checker.errorsOf(request200('/v1/messages', 'post'), messages)).toEqual([]);
      const { max_tokens: _limit, stream: _stream, ...countable } = messages;
      expect(checker.errorsOf(request200('/v1/messages/count_tokens', 'post'), countable)).toEqual([]);
    }
    expect(checker.errorsOf(request200('/v1/responses', 'post'), { ...responses, model: 'no-such-route' })).toEqual(['/model must be equal to one of the allowed values']);
    const toolLoop: Record<string, unknown> = { ...fixture('codec-anthropic-messages', 'tool-loop.1.request.json'), model: MODEL };
    const { max_tokens: _limit, ...withoutLimit } = toolLoop;
    expect(checker.errorsOf(request200('/v1/messages', 'post'), withoutLimit)).toEqual(["/ must have required property 'max_tokens'"]);
  });

  it('accepts the codecs\' fixture answers and every event of their fixture streams', () => {
    const protocols = [
      { codec: 'codec-openai-responses', path: '/v1/responses', event: 'ResponsesStreamEvent' },
      { codec: 'codec-anthropic-messages', path: '/v1/messages', event: 'MessagesStreamEvent' },
      { codec: 'codec-openai-chat', path: '/v1/chat/completions', event: 'ChatCompletionChunk' },
    ];
    for (const { codec, path, event } of protocols) {
      const answers = fixtureNames(codec, '.response.json');
      expect(answers.length).toBeGreaterThan(0);
      for (const name of answers) expect([name, checker.errorsOf(answer(path, 'post'), fixture(codec, name))]).toEqual([name, []]);
      for (const name of fixtureNames(codec, '.stream.sse')) {
        for (const data of streamEvents(codec, name)) expect([name, checker.errorsOf(`/components/schemas/${event}`, data)]).toEqual([name, []]);
      }
    }
  });

  it('describes the answers the gateway sends on every interface, as JSON and as streams', async () => {
    const key = server.demoKey;
    const bodies = {
      '/v1/responses': { model: MODEL, input: 'Say hello' },
      '/v1/messages': { model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] },
      '/v1/chat/completions': { model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] },
    } as const;
    const headers = { '/v1/responses': authHeaders.responses(key), '/v1/messages': authHeaders.messages(key), '/v1/chat/completions': authHeaders.chat(key) };
    for (const [path, body] of Object.entries(bodies) as [keyof typeof bodies, object][]) {
      expect(checker.errorsOf(request200(path, 'post'), body)).toEqual([]);
      const json = await request(server.url).post(path).set(headers[path]).send(body);
      expect([path, json.status, checker.errorsOf(answer(path, 'post'), json.body)]).toEqual([path, 200, []]);
      const streamed = await postForSSE(`${server.url}${path}`, headers[path], { ...body, stream: true });
      expect([path, streamed.status, streamed.headers.get('content-type')]).toEqual([path, 200, expect.stringContaining('text/event-stream')]);
      const event = { '/v1/responses': 'ResponsesStreamEvent', '/v1/messages': 'MessagesStreamEvent', '/v1/chat/completions': 'ChatCompletionChunk' }[path];
      const events = streamed.messages.filter(message => message.data !== '[DONE]');
      expect(events.length).toBeGreaterThan(1);
      for (const message of events) expect([path, checker.errorsOf(`/components/schemas/${event}`, JSON.parse(message.data))]).toEqual([path, []]);
    }
  });

  it('describes the models lists of both credentials, the token count and remote compaction', async () => {
    const key = server.demoKey;
    const openAIModels = await request(server.url).get('/v1/models').set(authHeaders.responses(key));
    const anthropicModels = await request(server.url).get('/v1/models').set(authHeaders.messages(key));
    expect([openAIModels.status, openAIModels.body.object]).toEqual([200, 'list']);
    expect([anthropicModels.status, anthropicModels.body.has_more]).toEqual([200, false]);
    expect(checker.errorsOf(answer('/v1/models', 'get'), openAIModels.body)).toEqual([]);
    expect(checker.errorsOf(answer('/v1/models', 'get'), anthropicModels.body)).toEqual([]);

    const countBody = { model: MODEL, messages: [{ role: 'user', content: 'Count me' }] };
    expect(checker.errorsOf(request200('/v1/messages/count_tokens', 'post'), countBody)).toEqual([]);
    const count = await request(server.url).post('/v1/messages/count_tokens').set(authHeaders.messages(key)).send(countBody);
    expect([count.status, checker.errorsOf(answer('/v1/messages/count_tokens', 'post'), count.body)]).toEqual([200, []]);

    const compactBody = { model: MODEL, input: [{ role: 'user', content: 'Remember the word teal.' }, { role: 'assistant', content: 'Noted.' }] };
    expect(checker.errorsOf(request200('/v1/responses/compact', 'post'), compactBody)).toEqual([]);
    const compacted = await request(server.url).post('/v1/responses/compact').set(authHeaders.responses(key)).send(compactBody);
    expect([compacted.status, checker.errorsOf(answer('/v1/responses/compact', 'post'), compacted.body)]).toEqual([200, []]);
  });

  it('describes the Gemini endpoints under /v1beta and /v1: the model in the path, the key in a header or the query, JSON, streams, token counts, models and refusals', async () => {
    const key = server.demoKey;
    const paths = ['generateContent', 'streamGenerateContent', 'countTokens'].flatMap(method => [`/v1beta/models/{model}:${method}`, `/v1/models/{model}:${method}`]);
    for (const path of paths) expect([path, document.paths[path]?.post?.security]).toEqual([path, [{ googleApiKey: [] }, { googleApiKeyQuery: [] }]]);
    expect(document.paths['/v1beta/models/{model}:generateContent']!.post!.parameters).toEqual([{ $ref: '#/components/parameters/GeminiModel' }]);
    expect(document.components.parameters.GeminiModel).toMatchObject({ name: 'model', required: true, schema: { enum: server.gateway.engine.routes.map(route => route.model) } });
    const generate = '/v1beta/models/{model}:generateContent';
    const body = { contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }], generationConfig: { maxOutputTokens: 64 } };
    expect(checker.errorsOf(request200(generate, 'post'), body)).toEqual([]);
    expect(checker.errorsOf(request200(generate, 'post'), { ...body, messages: [] })).toEqual(["/ must NOT have additional properties"]);
    const json = await request(server.url).post(`/v1beta/models/${MODEL}:generateContent`).set(geminiAuthHeaders(key)).send(body);
    expect([json.status, checker.errorsOf(answer(generate, 'post'), json.body)]).toEqual([200, []]);
    const streamed = await postForSSE(`${server.url}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, geminiAuthHeaders(key), body);
    expect(streamed.messages.length).toBeGreaterThan(1);
    for (const message of streamed.messages) expect(checker.errorsOf('/components/schemas/GenerateContentChunk', JSON.parse(message.data))).toEqual([]);
    const arrayStream = await request(server.url).post(`/v1/models/${MODEL}:streamGenerateContent`).set(geminiAuthHeaders(key)).send(body);
    expect([arrayStream.status, checker.errorsOf(answer('/v1/models/{model}:streamGenerateContent', 'post', '200', 'application/json'), arrayStream.body)]).toEqual([200, []]);
    const counted = await request(server.url).post(`/v1beta/models/${MODEL}:countTokens`).set(geminiAuthHeaders(key)).send({ contents: body.contents });
    expect([counted.status, checker.errorsOf(answer('/v1beta/models/{model}:countTokens', 'post'), counted.body)]).toEqual([200, []]);
    const models = await request(server.url).get('/v1beta/models').set(geminiAuthHeaders(key));
    expect([models.status, checker.errorsOf(answer('/v1beta/models', 'get'), models.body)]).toEqual([200, []]);
    const refused = await request(server.url).post(`/v1beta/models/${MODEL}:generateContent`).send(body);
    expect([refused.status, checker.errorsOf(answer(generate, 'post', '401'), refused.body)]).toEqual([401, []]);
  });

  it('describes the stored-response endpoints: read, input items, delete, and the 404 after', async () => {
    const key = server.demoKey;
    const created = await request(server.url).post('/v1/responses').set(authHeaders.responses(key)).send({ model: MODEL, input: 'Keep this one' });
    expect(created.status).toBe(200);
    const id = String(created.body.id);
    const read = await request(server.url).get(`/v1/responses/${id}`).set(authHeaders.responses(key));
    expect([read.status, checker.errorsOf(answer('/v1/responses/{id}', 'get'), read.body)]).toEqual([200, []]);
    const items = await request(server.url).get(`/v1/responses/${id}/input_items?limit=5&order=asc`).set(authHeaders.responses(key));
    expect([items.status, items.body.data.length, checker.errorsOf(answer('/v1/responses/{id}/input_items', 'get'), items.body)]).toEqual([200, 1, []]);
    const deleted = await request(server.url).delete(`/v1/responses/${id}`).set(authHeaders.responses(key));
    expect([deleted.status, checker.errorsOf(answer('/v1/responses/{id}', 'delete'), deleted.body)]).toEqual([200, []]);
    const gone = await request(server.url).get(`/v1/responses/${id}`).set(authHeaders.responses(key));
    expect([gone.status, checker.errorsOf(answer('/v1/responses/{id}', 'get', '404'), gone.body)]).toEqual([404, []]);
  });

  it('describes each interface\'s refusals in its own envelope', async () => {
    const noKey = {
      '/v1/responses': { model: MODEL, input: 'hi' },
      '/v1/messages': { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
      '/v1/chat/completions': { model: MODEL, messages: [{ role: 'user', content: 'hi' }] },
    };
    for (const [path, body] of Object.entries(noKey)) {
      const refused = await request(server.url).post(path).set(path === '/v1/messages' ? { 'anthropic-version': '2023-06-01' } : {}).send(body);
      expect([path, refused.status, refused.body.code, checker.errorsOf(answer(path, 'post', '401'), refused.body)]).toEqual([path, 401, 'API_KEY_MISSING', []]);
    }
    const openAIShape = await request(server.url).post('/v1/chat/completions').set(authHeaders.chat(server.demoKey)).send({ model: 'no-such-route', messages: [{ role: 'user', content: 'hi' }] });
    expect([openAIShape.status, checker.errorsOf(answer('/v1/chat/completions', 'post', '404'), openAIShape.body)]).toEqual([404, []]);
    const anthropicShape = await request(server.url).post('/v1/messages').set(authHeaders.messages(server.demoKey)).send({ model: MODEL, messages: [] });
    expect([anthropicShape.status, anthropicShape.body.type, checker.errorsOf(answer('/v1/messages', 'post', '400'), anthropicShape.body)]).toEqual([400, 'error', []]);
    expect(checker.errorsOf(answer('/v1/messages', 'post', '400'), openAIShape.body)).not.toEqual([]);
  });

  it('describes the admin API\'s answers and refusals', async () => {
    const call = async (method: 'get' | 'post' | 'patch', path: string, documentedPath: string, status: number, body?: object) => {
      const sent = request(server.url)[method](path).set(admin());
      const response = body ? await sent.send(body) : await sent;
      const schema = answer(documentedPath, method, String(status));
      if (body) expect([documentedPath, checker.errorsOf(request200(documentedPath, method), body)]).toEqual([documentedPath, []]);
      expect([documentedPath, response.status, checker.errorsOf(schema, response.body)]).toEqual([documentedPath, status, []]);
      return response.body as Record<string, unknown>;
    };
    await call('get', '/admin/me', '/admin/me', 200);
    await call('get', '/admin/routes', '/admin/routes', 200);
    const account = await call('post', '/admin/accounts', '/admin/accounts', 201, { name: 'openapi-team', balance: 2, group: 'docs' });
    const accountId = String(account.id);
    await call('get', '/admin/accounts', '/admin/accounts', 200);
    await call('get', `/admin/accounts/${accountId}`, '/admin/accounts/{id}', 200);
    await call('patch', `/admin/accounts/${accountId}`, '/admin/accounts/{id}', 200, { name: 'openapi-team-2' });
    await call('post', `/admin/accounts/${accountId}/balance`, '/admin/accounts/{id}/balance', 200, { delta: 1.5 });
    await call('get', `/admin/accounts/${accountId}/balance-events?limit=10`, '/admin/accounts/{id}/balance-events', 200);
    const created = await call('post', '/admin/keys', '/admin/keys', 201, { accountId, name: 'laptop', expiresAt: '2030-01-01T00:00:00Z', allowedModels: [MODEL], limits: { requests: 10 } });
    await call('get', `/admin/keys?accountId=${accountId}`, '/admin/keys', 200);
    await call('patch', `/admin/keys/${String((created.key as { id: string }).id)}`, '/admin/keys/{id}', 200, { status: 'disabled' });
    const token = await call('post', '/admin/console-tokens', '/admin/console-tokens', 201, { accountId, name: 'ci', role: 'viewer' });
    await call('get', '/admin/console-tokens', '/admin/console-tokens', 200);
    await call('patch', `/admin/console-tokens/${String((token.token as { id: string }).id)}`, '/admin/console-tokens/{id}', 200, { status: 'disabled', role: 'owner' });
    await request(server.url).post('/v1/responses').set(authHeaders.responses(server.demoKey)).send({ model: MODEL, input: 'one for the ledger' }).expect(200);
    const usage = await call('get', '/admin/usage?limit=5', '/admin/usage', 200);
    expect((usage.data as unknown[]).length).toBeGreaterThan(0);
    await call('get', '/admin/usage/summary?bucket=hour&groupBy=model', '/admin/usage/summary', 200);
    const audit = await call('get', '/admin/audit?limit=50', '/admin/audit', 200);
    expect((audit.data as unknown[]).length).toBeGreaterThan(0);

    const refused = await request(server.url).get('/admin/usage');
    expect([refused.status, refused.body.code, checker.errorsOf(answer('/admin/usage', 'get', '401'), refused.body)]).toEqual([401, 'ADMIN_TOKEN_MISSING', []]);
  });
});
