import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_IDENTITY } from '@signalbox/accounts';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from '../../examples/server/src';
import { openResponsesWebSocket } from '../helpers/open-responses-web-socket';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

/** The example server with room for 3 WebSocket connections in all and 2 per key. */
async function startCappedGateway(): Promise<{ server: TestGateway; remove(): void }> {
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-ws-caps-'));
  const configPath = join(folder, 'gateway.json');
  writeFileSync(configPath, JSON.stringify({ ...createDefaultConfig(EMBEDDED_SIMULATOR), webSocket: { maxSockets: 3, maxSocketsPerKey: 2 } }));
  return { server: await startTestGateway({ configPath }), remove: () => rmSync(folder, { recursive: true, force: true }) };
}

describe('WebSocket connection caps and shutdown', () => {
  let server: TestGateway;
  let remove: () => void;
  beforeAll(async () => {
    ({ server, remove } = await startCappedGateway());
  });
  afterAll(async () => {
    await server.close(1_000);
    remove();
  });

  it('closes a key’s connection past webSocket.maxSocketsPerKey, and any past webSocket.maxSockets, with an error frame and close code 1013', async () => {
    const account = await server.admin.createAccount(ADMIN_IDENTITY, { name: 'caps', balance: 5 });
    const other = await server.admin.createKey(ADMIN_IDENTITY, { accountId: account.id, name: 'other' });
    const first = await openResponsesWebSocket(server.url, server.demoKey);
    const second = await openResponsesWebSocket(server.url, server.demoKey);
    const third = await openResponsesWebSocket(server.url, server.demoKey);
    const [perKey] = await third.nextResponse();
    expect(perKey!.event).toMatchObject({ type: 'error', status: 429, code: 'WEBSOCKET_SOCKETS_LIMITED' });
    expect(perKey!.event.error).toMatchObject({ message: expect.stringContaining('This key has 2 WebSocket connections open') });
    expect((await third.closed).code).toBe(1013);
    const otherKey = await openResponsesWebSocket(server.url, other.secret);
    const overall = await openResponsesWebSocket(server.url, other.secret);
    const [full] = await overall.nextResponse();
    expect(full!.event.error).toMatchObject({ message: expect.stringContaining('The gateway has 3 WebSocket connections open') });
    expect((await overall.closed).code).toBe(1013);
    // An idle connection holds no concurrency slot: the key's connections still serve a response each.
    for (const client of [first, second]) {
      client.send({ type: 'response.create', model: 'sim-via-messages', input: 'Say hello', store: false });
      expect((await client.nextResponse()).at(-1)!.event.type).toBe('response.completed');
    }
    for (const client of [first, second, otherKey]) {
      client.socket.close();
      await client.closed;
    }
    const again = await openResponsesWebSocket(server.url, server.demoKey);
    again.send({ type: 'response.create', model: 'sim-via-messages', input: 'Say hello', store: false });
    expect((await again.nextResponse()).at(-1)!.event.type).toBe('response.completed');
    again.socket.close();
    await again.closed;
  });

  it('ends every connection at shutdown with the protocol’s SHUTTING_DOWN error frame and close code 1001, a response in flight first', async () => {
    const idle = await openResponsesWebSocket(server.url, server.demoKey);
    const busy = await openResponsesWebSocket(server.url, server.demoKey);
    busy.send({ type: 'response.create', model: 'sim-via-messages', input: '[[sim:slow=5]] [[sim:tokens=40]] Say hello', store: false });
    await busy.frameOf('response.output_text.delta');
    const closing = server.close(5_000);
    const [idleFrame] = await idle.nextResponse();
    expect(idleFrame!.event).toMatchObject({ type: 'error', status: 503, code: 'SHUTTING_DOWN' });
    expect((await idle.closed).code).toBe(1001);
    // The response in flight ends whole (within the grace), then the connection gets the same frame.
    expect((await busy.nextResponse()).at(-1)!.event.type).toBe('response.completed');
    expect((await busy.nextResponse())[0]!.event).toMatchObject({ type: 'error', code: 'SHUTTING_DOWN' });
    expect((await busy.closed).code).toBe(1001);
    await closing;
    // afterAll closes a server: a fresh one in place of the one shut down here.
    remove();
    ({ server, remove } = await startCappedGateway());
  });
});
