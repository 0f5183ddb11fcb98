import { ADMIN_IDENTITY } from '@signalbox/accounts';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { openRawConnection } from '../helpers/open-raw-connection';
import { framesAsMessages, openResponsesWebSocket, type ReceivedFrame } from '../helpers/open-responses-web-socket';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { webSocketHandshake } from '../helpers/web-socket-handshake';
import { validateResponsesStream } from '../stream-validators';

const ROUTES = ['sim-via-responses', 'sim-via-messages', 'sim-via-chat'];

function terminalOf(frames: readonly ReceivedFrame[]): ReceivedFrame['event'] {
  return frames.at(-1)!.event;
}

function responseOf(frames: readonly ReceivedFrame[]): { id: string; output: { type: string; [key: string]: unknown }[] } {
  return terminalOf(frames).response as { id: string; output: { type: string }[] };
}

describe("Responses' WebSocket mode on GET /v1/responses", () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  it.each(ROUTES)('streams a response on %s as one text frame per event, in the order the SSE stream has, recorded as openai-responses-ws', async model => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    client.send({ type: 'response.create', model, input: 'Say hello', store: false });
    const frames = await client.nextResponse();
    const verdict = validateResponsesStream(framesAsMessages(frames));
    expect(verdict.violations).toEqual([]);
    expect(terminalOf(frames).type).toBe('response.completed');
    expect(verdict.text.length).toBeGreaterThan(0);
    const opened = server.gateway.webSocketStats();
    client.socket.close();
    await client.closed;
    for (let turn = 0; turn < 1_000 && server.gateway.webSocketStats().closed === opened.closed; turn += 1) await new Promise(resolve => setImmediate(resolve));
    expect(server.gateway.webSocketStats()).toMatchObject({ closed: opened.closed + 1, closedResponses: opened.closedResponses + 1, open: opened.open - 1 });
    const [record] = server.recentUsage().filter(row => row.protocol === 'openai-responses-ws' && row.model === model);
    expect(record).toMatchObject({ protocol: 'openai-responses-ws', outcome: 'completed', stream: true, status: 200 });
  });

  it("serves the openai SDK's WebSocket client (ResponsesWS): a response, then one continuing it by previous_response_id", async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });
    const connection = new ResponsesWS(client);
    const completed: { id: string; output: unknown[] }[] = [];
    let waiter: { count: number; resolve(): void } | undefined;
    const failures: unknown[] = [];
    connection.on('error', error => failures.push(error));
    connection.on('response.completed', event => {
      completed.push(event.response);
      if (waiter && completed.length === waiter.count) waiter.resolve();
    });
    const ended = (count: number) => new Promise<void>(resolve => (waiter = { count, resolve }));
    const first = ended(1);
    connection.send({ type: 'response.create', model: 'sim-via-messages', input: 'Say hello', store: false });
    await first;
    const second = ended(2);
    connection.send({ type: 'response.create', model: 'sim-via-messages', previous_response_id: completed[0]!.id, input: 'And once more', store: false });
    await second;
    expect(failures).toEqual([]);
    expect(completed.map(response => response.output.length)).toEqual([1, 1]);
    connection.close({ code: 1000, reason: 'done' });
  });

  it('continues a store:false response named by previous_response_id with only the new input, on a Chat upstream that needs the whole history', async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    const tools = [{ type: 'function', name: 'exec_command', description: 'Runs a shell command.', parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } }];
    client.send({ type: 'response.create', model: 'sim-via-chat', input: 'Run cat notes.txt and tell me what it prints', tools, store: false });
    const first = responseOf(await client.nextResponse());
    const call = first.output.find(item => item.type === 'function_call')!;
    expect(call).toMatchObject({ name: 'exec_command' });
    client.send({
      type: 'response.create',
      model: 'sim-via-chat',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'remember the lighthouse' }],
      tools,
      store: false,
    });
    const second = await client.nextResponse();
    expect(terminalOf(second).type).toBe('response.completed');
    // The simulator answers from the tool result: it got the call and its output, so the whole history.
    expect(validateResponsesStream(framesAsMessages(second)).text).toContain('remember the lighthouse');
    client.socket.close();
  });

  it('answers a previous_response_id another connection kept with store:false as not found', async () => {
    const keeping = await openResponsesWebSocket(server.url, server.demoKey);
    keeping.send({ type: 'response.create', model: 'sim-via-messages', input: 'Say hello', store: false });
    const kept = responseOf(await keeping.nextResponse());
    const other = await openResponsesWebSocket(server.url, server.demoKey);
    other.send({ type: 'response.create', model: 'sim-via-messages', previous_response_id: kept.id, input: 'Say hello again', store: false });
    const [error] = await other.nextResponse();
    expect(error!.event).toMatchObject({ type: 'error', status: 404, error: { param: 'previous_response_id' } });
    keeping.socket.close();
    other.socket.close();
  });

  it('answers a warm-up (generate:false) with an empty completed response whose input the next request continues, and bills nothing for it', async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    const before = server.recentUsage().length;
    const tools = [{ type: 'function', name: 'exec_command', description: 'Runs a shell command.', parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } }];
    client.send({ type: 'response.create', model: 'sim-via-messages', input: 'Run cat warm.txt and tell me what it prints', tools, store: false, generate: false });
    const warmUp = await client.nextResponse();
    expect(warmUp.map(frame => frame.event.type)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(responseOf(warmUp).output).toEqual([]);
    expect(server.recentUsage().length).toBe(before);
    client.send({ type: 'response.create', model: 'sim-via-messages', previous_response_id: responseOf(warmUp).id, input: [], tools, store: false });
    const answer = await client.nextResponse();
    expect(terminalOf(answer).type).toBe('response.completed');
    // The warm-up's input reached the upstream: the simulator ran the command that prompt named.
    expect(JSON.stringify(responseOf(answer).output)).toContain('cat warm.txt');
    client.socket.close();
  });

  it('refuses a second response.create while a response is in flight with an error frame, and serves the first whole', async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    client.send({ type: 'response.create', model: 'sim-via-responses', input: '[[sim:slow=5]] Say hello', store: false });
    await client.frameOf('response.output_text.delta');
    client.send({ type: 'response.create', model: 'sim-via-responses', input: 'Say hello twice', store: false });
    const refusal = await client.frameOf('error');
    expect(refusal.event).toMatchObject({ status: 409, error: { code: 'websocket_response_in_progress' }, code: 'WEBSOCKET_RESPONSE_IN_PROGRESS' });
    await client.frameOf('response.completed');
    const response = client.frames.filter(frame => frame !== refusal);
    expect(validateResponsesStream(framesAsMessages(response)).violations).toEqual([]);
    client.socket.close();
  });

  it('settles a response the client closes the connection under like a client abort: the upstream call ends, the row is recorded, the hold released', async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    client.send({ type: 'response.create', model: 'sim-via-messages', input: '[[sim:slow=50]] Say hello', store: false });
    await client.frameOf('response.output_text.delta');
    const aborted = server.simulator.stats().aborted;
    client.socket.terminate();
    for (let turn = 0; turn < 2_000 && server.simulator.stats().aborted === aborted; turn += 1) await new Promise(resolve => setImmediate(resolve));
    expect(server.simulator.stats().aborted).toBe(aborted + 1);
    let row;
    for (let turn = 0; turn < 2_000 && !row; turn += 1) {
      row = server.recentUsage().find(record => record.protocol === 'openai-responses-ws' && record.outcome !== 'completed' && record.model === 'sim-via-messages');
      if (!row) await new Promise(resolve => setImmediate(resolve));
    }
    expect(row).toMatchObject({ outcome: 'client-aborted', stream: true });
    expect((await server.store.holdTotals!()).count).toBe(0);
  });

  it('retries an upstream 503 before the first event like a POST (3 attempts, the waits on the gateway clock), then sends the failure as an error frame with its status', async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    const sleeps = server.sleeps.length;
    client.send({ type: 'response.create', model: 'sim-via-responses', input: '[[sim:status=503]] Say hello', store: false });
    const [frame] = await client.nextResponse();
    expect(frame!.event).toMatchObject({ type: 'error', status: 503, code: 'UPSTREAM_OVERLOADED' });
    expect(server.sleeps.length - sleeps).toBe(2);
    let row;
    for (let turn = 0; turn < 1_000 && !row; turn += 1) {
      row = server.recentUsage().find(record => record.requestId === frame!.event.request_id);
      if (!row) await new Promise(resolve => setImmediate(resolve));
    }
    expect(row).toMatchObject({ protocol: 'openai-responses-ws', attempts: 3, status: 503 });
    client.socket.close();
  });

  it("ends a response whose upstream never answers at the route's deadline, on the gateway clock, with a 504 error frame", async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    const active = server.simulator.stats().active;
    client.send({ type: 'response.create', model: 'sim-via-responses', input: '[[sim:hang]] Say hello', store: false });
    for (let turn = 0; turn < 2_000 && server.simulator.stats().active === active; turn += 1) await new Promise(resolve => setImmediate(resolve));
    server.clock.advance(600_000);
    const [frame] = await client.nextResponse();
    expect(frame!.event).toMatchObject({ type: 'error', status: 504, code: 'UPSTREAM_TIMEOUT' });
    client.socket.close();
  });

  it('refuses a malformed frame, an unknown event and a binary frame with error frames that echo nothing, and stays open', async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    const secret = 'sk-proj-' + 'x'.repeat(5_000);
    client.socket.send(`{"type": "response.create", "input": "${secret}`);
    expect((await client.nextResponse())[0]!.event).toMatchObject({ type: 'error', status: 400, code: 'INVALID_JSON' });
    client.send({ type: secret });
    const [unknown] = await client.nextResponse();
    expect(unknown!.event).toMatchObject({ type: 'error', status: 400, code: 'INVALID_REQUEST', error: { param: 'type' } });
    expect(unknown!.text).not.toContain(secret.slice(0, 200));
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await client.nextResponse())[0]!.event).toMatchObject({ type: 'error', status: 400 });
    client.send({ type: 'response.create', model: 'sim-via-responses', input: 'Say hello', store: false });
    expect(terminalOf(await client.nextResponse()).type).toBe('response.completed');
    client.socket.close();
  });

  it('closes a connection whose frame is over the body limit with 1009, and answers an unknown key at the handshake with 401 in the envelope', async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    client.send({ type: 'response.create', model: 'sim-via-responses', input: 'x'.repeat(5 * 1024 * 1024) });
    expect((await client.closed).code).toBe(1009);
    const raw = await openRawConnection(server.url);
    await raw.write(webSocketHandshake('/v1/responses', 'authorization: Bearer sbx-unknown\r\n'));
    const answer = await raw.answer;
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'API_KEY_INVALID', request_id: answer.headers['x-request-id'] });
    raw.destroy();
  });

  it('checks the key again for each response: a key disabled mid-connection gets a 401 error frame at its next request', async () => {
    const account = await server.admin.createAccount(ADMIN_IDENTITY, { name: 'web-socket', balance: 5 });
    const created = await server.admin.createKey(ADMIN_IDENTITY, { accountId: account.id, name: 'soon-disabled' });
    const client = await openResponsesWebSocket(server.url, created.secret);
    client.send({ type: 'response.create', model: 'sim-via-responses', input: 'Say hello', store: false });
    expect(terminalOf(await client.nextResponse()).type).toBe('response.completed');
    await server.admin.updateKey(ADMIN_IDENTITY, created.key.id, { status: 'disabled' });
    client.send({ type: 'response.create', model: 'sim-via-responses', input: 'Say hello', store: false });
    expect((await client.nextResponse())[0]!.event).toMatchObject({ type: 'error', status: 401, code: 'API_KEY_DISABLED' });
    client.socket.close();
  });

  it('ends a connection at its 60-minute limit with websocket_connection_limit_reached and a close frame, on the gateway clock', async () => {
    const client = await openResponsesWebSocket(server.url, server.demoKey);
    server.clock.advance(60 * 60 * 1000);
    const [frame] = await client.nextResponse();
    expect(frame!.event).toMatchObject({ type: 'error', error: { code: 'websocket_connection_limit_reached' } });
    expect((await client.closed).code).toBe(1000);
  });

  it('leaves an upgrade on another path to the host: its own upgrade listener, else its routes (426 on /v1/messages)', async () => {
    const raw = await openRawConnection(server.url);
    await raw.write(webSocketHandshake('/v1/messages'));
    expect((await raw.answer).status).toBe(426);
    raw.destroy();
    const seen: string[] = [];
    const hostListener = (request: { url?: string }, socket: { end(text: string): void }) => {
      if (request.url !== '/host-socket') return;
      seen.push(request.url);
      socket.end('HTTP/1.1 418 Teapot\r\ncontent-length: 0\r\n\r\n');
    };
    server.server.on('upgrade', hostListener);
    try {
      const host = await openRawConnection(server.url);
      await host.write(webSocketHandshake('/host-socket'));
      expect((await host.answer).status).toBe(418);
      host.destroy();
      const client = await openResponsesWebSocket(server.url, server.demoKey);
      client.send({ type: 'response.create', model: 'sim-via-responses', input: 'Say hello', store: false });
      expect(terminalOf(await client.nextResponse()).type).toBe('response.completed');
      client.socket.close();
    } finally {
      server.server.off('upgrade', hostListener);
    }
    expect(seen).toEqual(['/host-socket']);
  });
});
