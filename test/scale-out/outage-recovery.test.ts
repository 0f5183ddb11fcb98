import { randomBytes } from 'node:crypto';
import { generateApiKey } from '@signalbox/accounts';
import { describeStartUpError } from '../../examples/server/src/describe-start-up-error';
import { startExampleServer, type ExampleServer } from '../../examples/server/src/start-example-server';
import { findFreePort, waitUntil } from '../helpers/throwaway-process';
import { startPostgres, type TestPostgres } from '../helpers/start-postgres';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { sendHello } from './send-hello';

/**
 * The example server on PostgreSQL and Redis when either is down at start (a one-line error naming
 * the variable) or goes away while it runs (503 in the caller's envelope, never a 500, and service
 * again once the server is back, with no restart of the gateway).
 */
describe('example server on PostgreSQL and Redis: outages', () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  let server: ExampleServer;
  let key: string;
  const serverSecret = randomBytes(32).toString('hex');

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    server = await startExampleServer({
      port: 0,
      storage: { kind: 'postgres', url: postgres.url, serverSecret, adminTokenDigests: [] },
      limiter: { kind: 'redis', url: redis.url },
    });
    key = generateApiKey();
    const account = await server.store.createAccount({ name: 'outage', balanceMicros: 100_000_000 });
    await server.store.createKey({ accountId: account.id, name: 'outage', secret: key });
  }, 60_000);

  afterAll(async () => {
    await server?.close(0);
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  const responses = () => sendHello(server.url, key, 'responses');
  const messages = () => sendHello(server.url, key, 'messages');
  /** Real servers restart in real time: poll until the gateway serves again (it reconnects by itself). */
  const servesAgain = () =>
    waitUntil(async () => (await responses()).status === 200, { what: () => 'a 200 after the restart', exited: () => false, timeoutMs: 15_000 });

  it('a database that cannot be reached at start is one line naming SIGNALBOX_DATABASE_URL, never the URL', async () => {
    const password = randomBytes(8).toString('hex');
    const url = `postgres://signalbox:${password}@127.0.0.1:${await findFreePort()}/postgres`;
    const error = await startExampleServer({ port: 0, storage: { kind: 'postgres', url, serverSecret, adminTokenDigests: [] } }).then(
      () => new Error('started'),
      (failure: unknown) => failure,
    );
    const line = describeStartUpError(error);
    expect(line).toMatch(/^SIGNALBOX_DATABASE_URL: cannot open the PostgreSQL database \(.*ECONNREFUSED.*\); check that it is running/);
    expect(line).not.toContain('\n');
    expect(line).not.toContain(password);
    expect(line).not.toContain(url);
  });

  it('a Redis that cannot be reached at start is one line naming SIGNALBOX_REDIS_URL, never the URL', async () => {
    const password = randomBytes(8).toString('hex');
    const url = `redis://:${password}@127.0.0.1:${await findFreePort()}`;
    const error = await startExampleServer({ port: 0, limiter: { kind: 'redis', url } }).then(
      () => new Error('started'),
      (failure: unknown) => failure,
    );
    const line = describeStartUpError(error);
    expect(line).toMatch(/^SIGNALBOX_REDIS_URL: cannot reach Redis \(.*ECONNREFUSED.*\); check that it is running/);
    expect(line).not.toContain(password);
  });

  it('while PostgreSQL is down: 503 STORE_UNAVAILABLE in each caller\'s envelope and /readyz 503; served again once it is back', async () => {
    expect((await responses()).status).toBe(200);
    await postgres.pause();
    try {
      const openai = await responses();
      expect(openai.status).toBe(503);
      expect(openai.headers.get('retry-after')).toBe('1');
      expect(await openai.json()).toMatchObject({ error: { code: 'store_unavailable' } });
      const anthropic = await messages();
      expect(anthropic.status).toBe(503);
      expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.stringContaining('cannot reach its database') } });
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not-ready', checks: { store: expect.not.stringMatching(/^ok$/), limiter: 'ok' } });
    } finally {
      await postgres.resume();
    }
    await servesAgain();
    expect((await messages()).status).toBe(200);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { store: 'ok', limiter: 'ok' } });
  }, 40_000);

  it('while Redis is down: 503 LIMITER_UNAVAILABLE (nothing served without its limits) and /readyz 503; served again once it is back', async () => {
    expect((await responses()).status).toBe(200);
    const before = server.simulator.stats().requests;
    await redis.pause();
    try {
      const openai = await responses();
      expect(openai.status).toBe(503);
      expect(await openai.json()).toMatchObject({ error: { code: 'limiter_unavailable' } });
      expect((await messages()).status).toBe(503);
      expect(server.simulator.stats().requests).toBe(before);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not-ready', checks: { store: 'ok' } });
    } finally {
      await redis.resume();
    }
    await servesAgain();
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { store: 'ok', limiter: 'ok' } });
  }, 40_000);
});
