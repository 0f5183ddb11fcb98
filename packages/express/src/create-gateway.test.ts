import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createMemoryAccountStore, type NewApiKey } from '@signalbox/accounts';
import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec } from '@signalbox/core';
import { systemClock, type GatewayConfigInput, type UsageRecord } from '@signalbox/engine';
import { createScriptedUpstream, readFixture, type ScriptedAnswer } from '@signalbox/engine/testing';
import express from 'express';
import request from 'supertest';
import { createGateway } from './create-gateway';
import type { GatewayLogger } from './gateway-logger';

type LogLine = { level: string; object: Record<string, unknown>; message: string | undefined };

type AppOptions = {
  codecs?: readonly Codec[];
  config?: GatewayConfigInput;
  answers?: Record<string, readonly ScriptedAnswer[]>;
  key?: Pick<NewApiKey, 'allowedModels'>;
  /** Mount `gateway.notFoundHandler` and `gateway.errorHandler` last, as a host that wants the gateway's 404 everywhere does. */
  gatewayNotFound?: boolean;
};

const messagesConfig: GatewayConfigInput = {
  upstreams: { a: { protocol: 'anthropic-messages', baseURL: 'http://127.0.0.1:9' } },
  routes: [{ model: 'client-model', interfaces: ['responses', 'messages', 'chat'], targets: [{ upstream: 'a', model: 'claude-upstream' }] }],
};

/**
 * A host app on a loopback port: its own route, the gateway mounted at `/` with scripted upstreams
 * (no upstream sockets), then another route of its own. Keeps every log line and usage record.
 */
async function startApp(options: AppOptions = {}) {
  const store = createMemoryAccountStore();
  const account = await store.createAccount({ name: 'host account', balanceMicros: 1_000_000 });
  const { secret } = await store.createKey({ accountId: account.id, name: 'host key', ...options.key });
  const logs: LogLine[] = [];
  const line = (level: string) => (object: Record<string, unknown>, message?: string) => void logs.push({ level, object, message });
  const logger: GatewayLogger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
  const records: UsageRecord[] = [];
  const gateway = createGateway({
    config: options.config ?? messagesConfig,
    codecs: options.codecs ?? [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec],
    store,
    logger,
    recordUsage: record => void records.push(record),
    // Rows committed at the next turn, as the tests read them right after each answer.
    usageCommitDelayMs: 0,
    clock: { ...systemClock, sleep: async () => undefined },
    upstreamClient: (name, clientOptions) => createScriptedUpstream(name, clientOptions, options.answers?.[name] ?? []),
  });
  const app = express();
  app.get('/before', (_request, response) => void response.status(200).send('host before'));
  app.use(gateway);
  app.get('/after', (_request, response) => void response.status(200).send('host after'));
  if (options.gatewayNotFound) app.use(gateway.notFoundHandler, gateway.errorHandler);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    secret,
    logs,
    records,
    async close() {
      server.close();
      await gateway.close();
    },
  };
}

let app: Awaited<ReturnType<typeof startApp>> | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('createGateway mounted in a host app', () => {
  it('leaves the host’s routes registered before and after it working', async () => {
    app = await startApp({ answers: { a: [{ body: readFixture('messages-answer.json') }] } });
    const before = await request(app.url).get('/before');
    expect([before.status, before.text]).toEqual([200, 'host before']);
    const after = await request(app.url).get('/after');
    expect([after.status, after.text]).toEqual([200, 'host after']);
    const generated = await request(app.url)
      .post('/v1/responses')
      .set('authorization', `Bearer ${app.secret}`)
      .send({ model: 'client-model', input: 'Say hello' });
    expect(generated.status).toBe(200);
    expect(generated.body.output[0].content[0].text).toBe('Grüße aus Oslo 🌍!');
  });

  it('answers a JSON generation as application/json in UTF-8 with the exact byte length, and no ETag', async () => {
    app = await startApp({ answers: { a: [{ body: readFixture('messages-answer.json') }] } });
    const response = await fetch(`${app.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.secret}` },
      body: JSON.stringify({ model: 'client-model', input: 'Say hello' }),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('etag')).toBeNull();
    expect(JSON.parse(bytes.toString('utf8')).output[0].content[0].text).toBe('Grüße aus Oslo 🌍!');
  });

  it('answers an unknown /v1 path with the 404 envelope listing only the endpoints of the codecs it was given', async () => {
    app = await startApp({
      codecs: [openAIResponsesCodec],
      config: {
        upstreams: { r: { protocol: 'openai-responses', baseURL: 'http://127.0.0.1:9/v1' } },
        routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'r', model: 'gpt-upstream' }] }],
      },
    });
    const response = await request(app.url).get('/v1/unknown').set('authorization', `Bearer ${app.secret}`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      code: 'ENDPOINT_NOT_FOUND',
      request_id: response.headers['x-request-id'],
      error: {
        type: 'invalid_request_error',
        message:
          'No endpoint GET /v1/unknown. Endpoints: POST /v1/responses, POST /v1/responses/compact, GET /v1/models, ' +
          'GET /v1/responses/{id}, DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items.',
      },
    });
    expect(response.body.error.message).not.toContain('/v1/messages');
  });

  it('answers a repeated /v1 with a 404 whose hint is the real base URL', async () => {
    app = await startApp();
    const response = await request(app.url).post('/v1/v1/responses').set('authorization', `Bearer ${app.secret}`).send({});
    expect(response.status).toBe(404);
    expect(response.body.error.message).toBe(
      `No endpoint POST /v1/v1/responses. The path repeats /v1: give this client the base URL ${app.url}/v1.`,
    );
  });

  it('gives a path it does not claim, mounted last as notFoundHandler, a 404 and no usage record; a /v1 path keeps its record', async () => {
    app = await startApp({ gatewayNotFound: true });
    const requestIds: (string | null)[] = [];
    for (const [method, path] of [['HEAD', '/'], ['GET', '/'], ['GET', '/favicon.ico']] as const) {
      const response = await fetch(`${app.url}${path}`, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      requestIds.push(response.headers.get('x-request-id'));
      if (method === 'GET') expect(((await response.json()) as { code: string }).code).toBe('ENDPOINT_NOT_FOUND');
    }
    const claimed = await request(app.url).get('/v1/unknown').set('authorization', `Bearer ${app.secret}`);
    expect(claimed.status).toBe(404);
    // Records arrive in order: once the /v1 path's is there, any of the others would be too.
    expect(app.records.map(record => [record.requestId, record.errorCode])).toEqual([[claimed.headers['x-request-id'], 'ENDPOINT_NOT_FOUND']]);
    const accessLines = app.logs.filter(line => line.message === 'http request');
    expect(accessLines.map(line => line.object.path)).toEqual(['/', '/', '/favicon.ico', '/v1/unknown']);
    // Each access line carries the request id its answer did, so a 404 can be found in the log.
    expect(accessLines.map(line => line.object.requestId)).toEqual([...requestIds, claimed.headers['x-request-id']]);
  });

  it('lists in GET /v1/models only the routes the key may use', async () => {
    const target = [{ upstream: 'a', model: 'claude-upstream' }];
    app = await startApp({
      config: {
        upstreams: messagesConfig.upstreams,
        routes: ['model-a', 'model-b', 'model-c'].map(model => ({ model, interfaces: ['responses'], targets: target })),
      },
      key: { allowedModels: ['model-b'] },
    });
    const response = await request(app.url).get('/v1/models').set('authorization', `Bearer ${app.secret}`);
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('list');
    expect(response.body.data.map((model: { id: string }) => model.id)).toEqual(['model-b']);
  });

  it('logs a refusal as one debug line with code, param, message and protocol headers (the key as its visible prefix), never the key or the body', async () => {
    app = await startApp();
    const prompt = 'a prompt that must never reach a log line';
    const response = await request(app.url)
      .post('/v1/messages')
      .set({ 'x-api-key': app.secret, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2024-04-04' })
      .send({ model: 'client-model', messages: [{ role: 'user', content: prompt }] });
    expect(response.status).toBe(400);
    const debug = app.logs.filter(line => line.level === 'debug');
    expect(debug).toEqual([
      {
        level: 'debug',
        message: 'request refused',
        object: {
          requestId: response.headers['request-id'],
          code: 'INVALID_REQUEST',
          status: 400,
          param: 'max_tokens',
          message: response.body.error.message,
          protocolHeaders: { 'x-api-key': `${app.secret.slice(0, 12)}…`, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2024-04-04' },
        },
      },
    ]);
    const everything = JSON.stringify(app.logs);
    expect(everything).not.toContain(app.secret);
    expect(everything).not.toContain(prompt);
    expect(app.records).toHaveLength(1);
    expect(app.records[0]).toMatchObject({ status: 400, outcome: 'error', errorCode: 'INVALID_REQUEST' });
  });

  it('streams a same-protocol answer as SSE, the upstream’s frames as written but for the model', async () => {
    const frames = readFixture('messages-text.sse');
    app = await startApp({ answers: { a: [{ body: frames, chunkSize: 9 }] } });
    const response = await fetch(`${app.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': app.secret, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'client-model', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe(frames.replace('"model":"claude-upstream"', '"model":"client-model"'));
  });
});
