import { randomBytes } from 'node:crypto';
import { generateApiKey } from '@signalbox/accounts';
import { startExampleServer, type ExampleServer } from '../../examples/server/src/start-example-server';
import { createTestDatabase, type TestDatabase } from '../helpers/start-postgres';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { waitUntil } from '../helpers/throwaway-process';
import { startStallingProxy, type StallingProxy } from '../helpers/start-stalling-proxy';
import { sendHello } from './send-hello';

/** The bounds the server is given: short, so that a hang would show as a test far slower than them. */
const CONNECT_TIMEOUT_MS = 500;
const QUERY_TIMEOUT_MS = 1_000;
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** The most a refused request may take: a few store calls, each within its bound, with room for a loaded machine. */
const ANSWER_BOUND_MS = 6_000;

/**
 * The example server when PostgreSQL or Redis stops answering without refusing (a hung server or a
 * network partition, made by a relay that stops forwarding): each request is refused with 503 in
 * bounded time, as the connect, query and command timeouts promise, never held until TCP gives up;
 * the instance serves again by itself once the server answers again.
 */
describe('example server on PostgreSQL and Redis that stop answering', () => {
  let postgres: TestDatabase;
  let redis: TestRedis;
  let postgresRelay: StallingProxy;
  let redisRelay: StallingProxy;
  let server: ExampleServer;
  let key: string;
  const serverSecret = randomBytes(32).toString('hex');

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([createTestDatabase(), startRedis()]);
    [postgresRelay, redisRelay] = await Promise.all([startStallingProxy(postgres.port), startStallingProxy(redis.port)]);
    server = await startExampleServer({
      port: 0,
      storage: {
        kind: 'postgres',
        url: postgres.url.replace(`:${postgres.port}/`, `:${postgresRelay.port}/`),
        serverSecret,
        adminTokenDigests: [],
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        queryTimeoutMs: QUERY_TIMEOUT_MS,
      },
      limiter: { kind: 'redis', url: `redis://127.0.0.1:${redisRelay.port}`, commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS },
    });
    key = generateApiKey();
    const account = await server.store.createAccount({ name: 'stalled', balanceMicros: 100_000_000 });
    await server.store.createKey({ accountId: account.id, name: 'stalled', secret: key });
  }, 60_000);

  afterAll(async () => {
    postgresRelay?.resume();
    redisRelay?.resume();
    await server?.close(0);
    await Promise.all([postgresRelay?.close(), redisRelay?.close()]);
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  const responses = () => sendHello(server.url, key, 'responses');
  const messages = () => sendHello(server.url, key, 'messages');
  /** The answer and how long it took, on the real clock: the bound under test is the servers' own timeouts. */
  const timed = async (request: () => Promise<Response>) => {
    const started = performance.now();
    const response = await request();
    const body: unknown = await response.json();
    return { status: response.status, body, retryAfter: response.headers.get('retry-after'), elapsedMs: performance.now() - started };
  };
  const servesAgain = () =>
    waitUntil(async () => (await responses()).status === 200, { what: () => 'a 200 once the server answers again', exited: () => false, timeoutMs: 20_000 });

  it('while PostgreSQL does not answer: 503 STORE_UNAVAILABLE within the bounds in each caller\'s envelope, /readyz 503; served again once it answers', async () => {
    expect((await responses()).status).toBe(200);
    const before = server.simulator.stats().requests;
    postgresRelay.stall();
    try {
      const openai = await timed(responses);
      expect(openai).toMatchObject({ status: 503, retryAfter: '1', body: { error: { code: 'store_unavailable' } } });
      expect(openai.elapsedMs).toBeLessThan(ANSWER_BOUND_MS);
      const anthropic = await timed(messages);
      expect(anthropic).toMatchObject({ status: 503, body: { type: 'error', error: { message: expect.stringContaining('cannot reach its database') } } });
      expect(anthropic.elapsedMs).toBeLessThan(ANSWER_BOUND_MS);
      const ready = await timed(() => fetch(`${server.url}/readyz`));
      expect(ready).toMatchObject({ status: 503, body: { status: 'not-ready', checks: { store: expect.not.stringMatching(/^ok$/), limiter: 'ok' } } });
      expect(ready.elapsedMs).toBeLessThan(ANSWER_BOUND_MS);
      // Nothing was served without its hold.
      expect(server.simulator.stats().requests).toBe(before);
    } finally {
      postgresRelay.resume();
    }
    await servesAgain();
    expect((await messages()).status).toBe(200);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { store: 'ok', limiter: 'ok' } });
  }, 60_000);

  it('while PostgreSQL does not answer: concurrent requests of one account (their confirmation reads shared) are each refused with 503 within the bounds, none served', async () => {
    expect((await responses()).status).toBe(200);
    const before = server.simulator.stats().requests;
    postgresRelay.stall();
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => timed(index % 2 === 0 ? responses : messages)));
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.elapsedMs).toBeLessThan(ANSWER_BOUND_MS);
      }
      expect(answers.filter((_, index) => index % 2 === 0).map(answer => answer.body)).toEqual(
        Array.from({ length: 3 }, () => expect.objectContaining({ error: expect.objectContaining({ code: 'store_unavailable' }) })),
      );
      expect(server.simulator.stats().requests).toBe(before);
    } finally {
      postgresRelay.resume();
    }
    await servesAgain();
  }, 60_000);

  it('while Redis does not answer: 503 LIMITER_UNAVAILABLE within the bounds, nothing served without its limits; served again once it answers', async () => {
    expect((await responses()).status).toBe(200);
    const before = server.simulator.stats().requests;
    redisRelay.stall();
    try {
      const openai = await timed(responses);
      expect(openai).toMatchObject({ status: 503, body: { error: { code: 'limiter_unavailable' } } });
      expect(openai.elapsedMs).toBeLessThan(ANSWER_BOUND_MS);
      const anthropic = await timed(messages);
      expect(anthropic.status).toBe(503);
      expect(anthropic.elapsedMs).toBeLessThan(ANSWER_BOUND_MS);
      const ready = await timed(() => fetch(`${server.url}/readyz`));
      expect(ready).toMatchObject({ status: 503, body: { status: 'not-ready', checks: { store: 'ok' } } });
      expect(server.simulator.stats().requests).toBe(before);
    } finally {
      redisRelay.resume();
    }
    await servesAgain();
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { store: 'ok', limiter: 'ok' } });
  }, 60_000);
});
