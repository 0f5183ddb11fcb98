import express from 'express';
import { createGateway, type Gateway, type GatewayLogger } from 'signalbox';
import { createKeyedStore } from '../helpers/create-keyed-store';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';
import { openRawConnection } from '../helpers/open-raw-connection';
import { openResponsesWebSocket } from '../helpers/open-responses-web-socket';
import { webSocketHandshake } from '../helpers/web-socket-handshake';

type LoggedLine = { object: Record<string, unknown>; message: string | undefined };

/** A logger that keeps each line it is given in `lines`. */
function keepingLogger(lines: LoggedLine[]): GatewayLogger {
  const keep = (object: Record<string, unknown>, message?: string) => void lines.push({ object, message });
  return { info: keep, warn: keep, error: keep };
}

/**
 * A host that mounts the gateway at `mountPath` and attaches its WebSocket mode only when asked (the
 * example server always does); with `logs`, its lines go to a logger and its access lines to another.
 */
async function startHost(options: { attach: boolean; mountPath?: string; logs?: { lines: LoggedLine[]; accessLines: LoggedLine[] } }) {
  const keyed = await createKeyedStore();
  const gateway: Gateway = createGateway({
    ...(options.logs && { logger: keepingLogger(options.logs.lines), accessLogger: keepingLogger(options.logs.accessLines) }),
    config: {
      upstreams: { anthropic: { protocol: 'anthropic-messages', baseURL: 'http://127.0.0.1:1' } },
      routes: [{ model: 'claude-host', interfaces: ['messages', 'responses', 'chat'], targets: [{ upstream: 'anthropic', model: 'claude-1' }] }],
    },
    store: keyed.store,
  });
  const app = express();
  if (options.mountPath) app.use(options.mountPath, gateway);
  else app.use(gateway);
  const host: LoopbackServer = await listenOnLoopback(app);
  if (options.attach) gateway.attachUpgrade(host.server, { ...(options.mountPath && { mountPath: options.mountPath }) });
  return {
    url: host.url,
    demoKey: keyed.key,
    async close() {
      await gateway.close();
      await host.close();
    },
  };
}

describe('a WebSocket upgrade on a generation endpoint of a gateway whose host did not attach its WebSocket mode', () => {
  let server: Awaited<ReturnType<typeof startHost>>;
  beforeAll(async () => {
    server = await startHost({ attach: false });
  });
  afterAll(() => server.close());

  it('is answered 426 WEBSOCKET_NOT_SUPPORTED in the Responses envelope at once, saying to POST over HTTP', async () => {
    const connection = await openRawConnection(server.url);
    await connection.write(webSocketHandshake('/v1/responses', `authorization: Bearer ${server.demoKey}\r\n`));
    const answer = await connection.answer;
    expect(answer.status).toBe(426);
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        message:
          'This gateway does not serve WebSocket connections; send POST /v1/responses over HTTP instead (with "stream": true to stream it as server-sent events).',
        type: 'invalid_request_error',
        param: null,
        code: 'websocket_not_supported',
      },
      code: 'WEBSOCKET_NOT_SUPPORTED',
      request_id: answer.headers['x-request-id'],
    });
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
    connection.destroy();
  });

  it('is answered 426 in the Messages envelope on /v1/messages, and on Chat Completions in the OpenAI one', async () => {
    const messages = await openRawConnection(server.url);
    await messages.write(webSocketHandshake('/v1/messages'));
    const messagesAnswer = await messages.answer;
    expect(messagesAnswer.status).toBe(426);
    expect(JSON.parse(messagesAnswer.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' }, code: 'WEBSOCKET_NOT_SUPPORTED' });
    messages.destroy();
    const chat = await openRawConnection(server.url);
    await chat.write(webSocketHandshake('/v1/chat/completions'));
    const chatAnswer = await chat.answer;
    expect(chatAnswer.status).toBe(426);
    expect(JSON.parse(chatAnswer.body)).toMatchObject({ error: { code: 'websocket_not_supported' }, code: 'WEBSOCKET_NOT_SUPPORTED' });
    chat.destroy();
  });

  it('is answered 426 even without a key, so that a client falls back before it authenticates', async () => {
    const connection = await openRawConnection(server.url);
    await connection.write(webSocketHandshake('/v1/responses'));
    expect((await connection.answer).status).toBe(426);
    connection.destroy();
  });

  it('leaves a plain GET on /v1/responses to the 404 that names POST', async () => {
    const answer = await fetch(`${server.url}/v1/responses`, { headers: { authorization: `Bearer ${server.demoKey}` } });
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toBe('No endpoint GET /v1/responses. Use POST /v1/responses.');
  });

  it('leaves a WebSocket upgrade on a path that generates nothing (GET /v1/models) to that path', async () => {
    const connection = await openRawConnection(server.url);
    await connection.write(webSocketHandshake('/v1/models', `authorization: Bearer ${server.demoKey}\r\n`));
    expect((await connection.answer).status).toBe(200);
    connection.destroy();
  });
});

describe('the WebSocket mode attached under a mount path', () => {
  it('serves /llm/v1/responses, and leaves /v1/responses to the host', async () => {
    const server = await startHost({ attach: true, mountPath: '/llm' });
    try {
      const client = await openResponsesWebSocket(server.url, server.demoKey, '/llm/v1/responses');
      client.send({ type: 'response.create', model: 'claude-host', input: 'hi', store: false });
      // The upstream is unreachable: the error travels as the protocol's error frame, not a 500 or a close.
      const [frame] = await client.nextResponse();
      expect(frame!.event).toMatchObject({ type: 'error', status: 502, code: 'UPSTREAM_UNREACHABLE' });
      client.socket.close();
      const connection = await openRawConnection(server.url);
      await connection.write(webSocketHandshake('/v1/responses', `authorization: Bearer ${server.demoKey}\r\n`));
      expect((await connection.answer).status).toBe(404);
      connection.destroy();
    } finally {
      await server.close();
    }
  });
});

describe('the WebSocket mode with an access logger of its own', () => {
  it('writes the access line of each response there, and its 5xx error line to the logger', async () => {
    const logs = { lines: [] as LoggedLine[], accessLines: [] as LoggedLine[] };
    const server = await startHost({ attach: true, logs });
    try {
      const client = await openResponsesWebSocket(server.url, server.demoKey);
      client.send({ type: 'response.create', model: 'claude-host', input: 'hi', store: false });
      const [frame] = await client.nextResponse();
      expect(frame!.event).toMatchObject({ type: 'error', status: 502 });
      for (let turn = 0; turn < 200 && logs.accessLines.length === 0; turn += 1) await new Promise(resolve => setImmediate(resolve));
      client.socket.close();

      expect(logs.accessLines).toEqual([
        { message: 'http request', object: expect.objectContaining({ method: 'GET', path: '/v1/responses', status: 502, code: 'UPSTREAM_UNREACHABLE' }) },
      ]);
      expect(logs.lines.filter(line => line.message === 'http request')).toEqual([]);
      expect(logs.lines).toContainEqual(expect.objectContaining({ object: expect.objectContaining({ code: 'UPSTREAM_UNREACHABLE' }) }));
    } finally {
      await server.close();
    }
  });
});
