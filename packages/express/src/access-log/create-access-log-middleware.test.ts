import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createMemoryAccountStore, type KeyLimits } from '@signalbox/accounts';
import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import { systemClock, type GatewayConfigInput } from '@signalbox/engine';
import { createScriptedUpstream, readFixture, type ScriptedAnswer } from '@signalbox/engine/testing';
import express from 'express';
import { createGateway } from '../create-gateway';
import type { GatewayLogger } from '../gateway-logger';
import { ACCESS_LINE_MESSAGE } from './create-access-log-middleware';

type LogLine = { level: string; object: Record<string, unknown>; message: string | undefined };

const config: GatewayConfigInput = {
  upstreams: {
    first: { protocol: 'anthropic-messages', baseURL: 'http://127.0.0.1:9' },
    second: { protocol: 'anthropic-messages', baseURL: 'http://127.0.0.1:9' },
  },
  routes: [
    {
      model: 'client-model',
      interfaces: ['responses', 'messages', 'chat'],
      targets: [
        { upstream: 'first', model: 'claude-first' },
        { upstream: 'second', model: 'claude-second' },
      ],
    },
  ],
};

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/**
 * The gateway in an Express app on a loopback port, scripted upstreams behind it, every log line
 * kept, and an observer that gives each exchange the same trace id. With `accessLogs`, access lines
 * go to a logger of their own that keeps its lines there.
 */
async function startApp(answers: Record<string, readonly ScriptedAnswer[]>, limits?: KeyLimits, accessLogs?: LogLine[]) {
  const store = createMemoryAccountStore();
  const account = await store.createAccount({ name: 'logged account', balanceMicros: 1_000_000 });
  const { secret, key } = await store.createKey({ accountId: account.id, name: 'logged key', ...(limits && { limits }) });
  const logs: LogLine[] = [];
  const keeper = (kept: LogLine[]): GatewayLogger => {
    const line = (level: string) => (object: Record<string, unknown>, message?: string) => void kept.push({ level, object, message });
    return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
  };
  const gateway = createGateway({
    config,
    codecs: [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec],
    store,
    logger: keeper(logs),
    ...(accessLogs && { accessLogger: keeper(accessLogs) }),
    observer: { watchExchange: () => ({ traceId: TRACE_ID }) },
    usageCommitDelayMs: 0,
    clock: { ...systemClock, sleep: async () => undefined },
    upstreamClient: (name, clientOptions) => createScriptedUpstream(name, clientOptions, answers[name] ?? []),
  });
  const app = express();
  app.use(gateway);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    secret,
    keyPrefix: key.prefix,
    logs,
    /** The access line of the request with this id, once written (it follows the response). */
    async accessLine(requestId: string | null): Promise<Record<string, unknown> | undefined> {
      const find = () => logs.find(entry => entry.message === ACCESS_LINE_MESSAGE && entry.object.requestId === requestId);
      for (let turn = 0; turn < 200 && !find(); turn += 1) await new Promise(resolve => setImmediate(resolve));
      return find()?.object;
    },
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

function postMessages(body: Record<string, unknown>, secret: string, signal?: AbortSignal) {
  return fetch(`${app!.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'user-agent': 'access-log-test' },
    body: JSON.stringify({ model: 'client-model', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }], ...body }),
    ...(signal && { signal }),
  });
}

const HEADERS = { 'user-agent': 'access-log-test', 'content-type': 'application/json', 'content-length': expect.any(String), accept: '*/*' };

/** Every field of the access line of a completed `POST /v1/messages` served by the first upstream, with `changes` applied. */
function servedLine(requestId: string | null, changes: Record<string, unknown>): Record<string, unknown> {
  return {
    requestId,
    traceId: TRACE_ID,
    method: 'POST',
    path: '/v1/messages',
    keyPrefix: app!.keyPrefix,
    route: 'client-model',
    upstream: 'first',
    upstreamModel: 'claude-first',
    upstreamRequestId: undefined,
    status: 200,
    outcome: 'completed',
    code: undefined,
    attempts: 1,
    stream: false,
    aborted: false,
    latencyMs: expect.any(Number),
    timeToFirstByteMs: expect.any(Number),
    inputTokens: 21,
    outputTokens: 7,
    tokensEstimated: false,
    headers: HEADERS,
    ...changes,
  };
}

describe('the access line', () => {
  it('of a JSON answer holds its ids, route, upstream, status, outcome, attempts, timings and tokens', async () => {
    app = await startApp({ first: [{ body: readFixture('messages-answer.json'), headers: { 'request-id': 'req_upstream_1' } }] });
    const response = await postMessages({}, app.secret);
    await response.text();

    expect(response.status).toBe(200);
    const requestId = response.headers.get('request-id');
    expect(await app.accessLine(requestId)).toEqual(servedLine(requestId, { upstreamRequestId: 'req_upstream_1' }));
    expect(app.logs.filter(entry => entry.message === ACCESS_LINE_MESSAGE)).toHaveLength(1);
    expect(app.logs.filter(entry => entry.level === 'debug')).toEqual([]);
  });

  it('of a stream says so, and its tokens and time to first byte come from the stream that ended', async () => {
    app = await startApp({ first: [{ body: readFixture('messages-text.sse'), chunkSize: 40 }] });
    const response = await postMessages({ stream: true }, app.secret);
    await response.text();

    expect(response.status).toBe(200);
    const requestId = response.headers.get('request-id');
    const line = await app.accessLine(requestId);
    expect(line).toEqual(servedLine(requestId, { stream: true }));
    expect(line?.latencyMs as number).toBeGreaterThanOrEqual(line?.timeToFirstByteMs as number);
  });

  it('of a refused body holds the status and service code, no upstream and no attempt; the reason goes to a separate debug line', async () => {
    app = await startApp({});
    const response = await postMessages({ max_tokens: undefined }, app.secret);
    const body = (await response.json()) as { error: { message: string } };

    expect(response.status).toBe(400);
    const requestId = response.headers.get('request-id');
    expect(await app.accessLine(requestId)).toEqual({
      requestId,
      traceId: TRACE_ID,
      method: 'POST',
      path: '/v1/messages',
      keyPrefix: app.keyPrefix,
      route: undefined,
      upstream: undefined,
      upstreamModel: undefined,
      upstreamRequestId: undefined,
      status: 400,
      outcome: 'error',
      code: 'INVALID_REQUEST',
      attempts: 0,
      stream: false,
      aborted: false,
      latencyMs: expect.any(Number),
      timeToFirstByteMs: undefined,
      inputTokens: undefined,
      outputTokens: undefined,
      tokensEstimated: false,
      headers: HEADERS,
    });
    expect(app.logs.filter(entry => entry.level === 'debug')).toEqual([
      {
        level: 'debug',
        message: 'request refused',
        object: {
          requestId,
          code: 'INVALID_REQUEST',
          status: 400,
          param: 'max_tokens',
          message: body.error.message,
          protocolHeaders: { 'x-api-key': `${app.keyPrefix}…`, 'anthropic-version': '2023-06-01' },
        },
      },
    ]);
    expect(JSON.stringify(app.logs)).not.toContain(app.secret);
  });

  it('of a request refused by the key’s rate limit holds 429 RATE_LIMITED and the route; the debug line gives the reason the client got', async () => {
    app = await startApp({ first: [{ body: readFixture('messages-answer.json') }] }, { requests: 1, windowSeconds: 60 });
    const first = await postMessages({}, app.secret);
    await first.text();
    const limited = await postMessages({}, app.secret);
    const body = (await limited.json()) as { error: { message: string } };

    expect([first.status, limited.status]).toEqual([200, 429]);
    const requestId = limited.headers.get('request-id');
    expect(await app.accessLine(requestId)).toEqual(
      servedLine(requestId, {
        upstream: undefined,
        upstreamModel: undefined,
        status: 429,
        outcome: 'error',
        code: 'RATE_LIMITED',
        attempts: 0,
        timeToFirstByteMs: undefined,
        inputTokens: undefined,
        outputTokens: undefined,
      }),
    );
    expect(app.logs.filter(entry => entry.level === 'debug')).toEqual([
      {
        level: 'debug',
        message: 'request refused',
        object: {
          requestId,
          code: 'RATE_LIMITED',
          status: 429,
          message: body.error.message,
          protocolHeaders: { 'x-api-key': `${app.keyPrefix}…`, 'anthropic-version': '2023-06-01' },
        },
      },
    ]);
  });

  it('of a request refused for its key has no key prefix, and the key it sent is [redacted] in the debug line', async () => {
    app = await startApp({});
    const response = await postMessages({}, `wrong-${'k'.repeat(30)}`);
    await response.text();

    expect(response.status).toBe(401);
    const requestId = response.headers.get('request-id');
    expect(await app.accessLine(requestId)).toMatchObject({ requestId, keyPrefix: undefined, status: 401, outcome: 'error', code: 'API_KEY_INVALID', attempts: 0 });
    expect(app.logs.find(entry => entry.level === 'debug')?.object).toMatchObject({
      requestId,
      code: 'API_KEY_INVALID',
      protocolHeaders: { 'x-api-key': '[redacted]', 'anthropic-version': '2023-06-01' },
    });
    expect(JSON.stringify(app.logs)).not.toContain('k'.repeat(30));
  });

  it('of a request that failed over to its second upstream names the upstream that served and counts both attempts; at debug a line says why the first failed', async () => {
    const overloaded = { status: 529, body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) };
    app = await startApp({ first: [overloaded, overloaded, overloaded], second: [{ body: readFixture('messages-answer.json') }] });
    const response = await postMessages({}, app.secret);
    await response.text();

    expect(response.status).toBe(200);
    const requestId = response.headers.get('request-id');
    expect(await app.accessLine(requestId)).toEqual(servedLine(requestId, { upstream: 'second', upstreamModel: 'claude-second', attempts: 2 }));
    expect(app.logs.filter(entry => entry.level === 'debug')).toEqual([
      {
        level: 'debug',
        message: 'upstream attempt failed',
        object: {
          requestId,
          attempt: 1,
          route: 'client-model',
          upstream: 'first',
          credential: 'default',
          upstreamModel: 'claude-first',
          code: 'UPSTREAM_OVERLOADED',
          status: 503,
          upstreamError: { status: 529, type: 'overloaded_error', message: { chars: 10, sha256: expect.stringMatching(/^[0-9a-f]{16}$/) } },
          retried: true,
        },
      },
    ]);
  });

  it('of a stream the client left holds the 200 it was sent, outcome client-aborted and aborted true', async () => {
    const frames = readFixture('messages-text.sse');
    const firstDelta = frames.indexOf('event: content_block_delta');
    app = await startApp({ first: [{ chunks: [frames.slice(0, frames.indexOf('\n\n', firstDelta) + 2)], then: 'hang' }] });
    const controller = new AbortController();
    const response = await postMessages({ stream: true }, app.secret, controller.signal);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();

    expect(response.status).toBe(200);
    const requestId = response.headers.get('request-id');
    expect(await app.accessLine(requestId)).toEqual(
      // The upstream's counts come at the stream's end, which never came: the gateway estimated them.
      servedLine(requestId, { outcome: 'client-aborted', stream: true, aborted: true, inputTokens: 3, outputTokens: 3, tokensEstimated: true }),
    );
  });

  it('goes to the access logger when one is given, every other line staying with the logger', async () => {
    const accessLogs: LogLine[] = [];
    app = await startApp({}, undefined, accessLogs);
    const response = await postMessages({ max_tokens: undefined }, app.secret);
    await response.text();
    const requestId = response.headers.get('request-id');
    for (let turn = 0; turn < 200 && accessLogs.length === 0; turn += 1) await new Promise(resolve => setImmediate(resolve));

    expect(accessLogs).toEqual([{ level: 'info', message: ACCESS_LINE_MESSAGE, object: expect.objectContaining({ requestId, status: 400, code: 'INVALID_REQUEST' }) }]);
    expect(app.logs).toEqual([expect.objectContaining({ level: 'debug', message: 'request refused', object: expect.objectContaining({ requestId }) })]);
  });

  it('of a models list, which has no usage record, is written at once with the key prefix and the status', async () => {
    app = await startApp({});
    const response = await fetch(`${app.url}/v1/models`, { headers: { authorization: `Bearer ${app.secret}` } });
    await response.text();

    expect(response.status).toBe(200);
    expect(await app.accessLine(response.headers.get('x-request-id'))).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      keyPrefix: app.keyPrefix,
      route: undefined,
      status: 200,
      outcome: undefined,
      aborted: false,
      latencyMs: expect.any(Number),
    });
  });
});
