import { performance } from 'node:perf_hooks';
import type { GatewayConfigInput } from '@signalbox/engine';
import type { TestGateway } from '../helpers/start-test-gateway';
import {
  createInterfaceClient,
  createKey,
  expectAnswered,
  expectRefusal,
  INTERFACES,
  promptBody,
  refusalOf,
  sleep,
  startWithConfig,
} from './refusal-helpers';

const QUEUE_TIMEOUT_MS = 100;
/** How long the stalled request holds the only connection before the gateway gives up on it (504). */
const STALL_TIMEOUT_MS = 2_000;

/** An upstream with one connection, a route on it alone, and one that fails over to another upstream. */
function withOneConnectionUpstream(config: GatewayConfigInput): GatewayConfigInput {
  const interfaces = ['responses', 'messages', 'chat'];
  return {
    ...config,
    upstreams: {
      ...config.upstreams,
      'one-connection': {
        protocol: 'anthropic-messages',
        baseURL: 'embedded:simulator',
        connections: 1,
        queueTimeoutMs: QUEUE_TIMEOUT_MS,
        timeoutMs: STALL_TIMEOUT_MS,
      },
    },
    routes: [
      ...config.routes,
      { model: 'one-connection', interfaces, targets: [{ upstream: 'one-connection', model: 'sim-1' }] },
      {
        model: 'one-connection-with-failover',
        interfaces,
        targets: [
          { upstream: 'one-connection', model: 'sim-1' },
          { upstream: 'simulator-chat', model: 'sim-1' },
        ],
      },
    ],
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 200) throw new Error('the condition never held');
    await sleep(10);
  }
}

describe('503 UPSTREAM_OVERLOADED: every connection to an upstream stays busy past its queue timeout', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startWithConfig(withOneConnectionUpstream);
  });
  afterAll(() => server.close(1_000));

  it.each(INTERFACES)(
    'on the %s interface: refused after the queue timeout with Retry-After, while another upstream and a failover route answer at once',
    async name => {
      const stallingKey = await createKey(server);
      const key = await createKey(server);
      const stalling = createInterfaceClient(server, name, { key: stallingKey });
      const stalled = refusalOf(stalling.create(promptBody(name, 'one-connection', '[[sim:hang]] hold the only connection')));
      await until(() => server.simulator.stats().active === 1);

      const sdk = createInterfaceClient(server, name, { key });
      const sleepsBefore = server.sleeps.length;
      const started = performance.now();
      const refusal = await expectRefusal(
        server,
        sdk,
        await refusalOf(sdk.create(promptBody(name, 'one-connection', 'A quick answer please'))),
        { status: 503, code: 'UPSTREAM_OVERLOADED', message: /busy/ },
        key,
      );
      // Three attempts, each waiting the queue timeout; the 1 s waits between them are recorded, not slept.
      expect(performance.now() - started).toBeGreaterThanOrEqual(3 * QUEUE_TIMEOUT_MS - 3);
      expect(refusal.record.attempts).toBe(3);
      expect(refusal.retryAfter).toBe(1);
      expect(server.sleeps.slice(sleepsBefore)).toEqual([1_000, 1_000]);
      expect(server.simulator.stats().active).toBe(1); // the refused attempts never reached the upstream

      const other = createInterfaceClient(server, name, { key });
      expectAnswered(other, await other.create(promptBody(name, 'sim-via-chat', 'A quick answer please')), 'sim-via-chat');
      const failover = createInterfaceClient(server, name, { key });
      expectAnswered(
        failover,
        await failover.create(promptBody(name, 'one-connection-with-failover', 'A quick answer please')),
        'one-connection-with-failover',
      );
      expect(server.sleeps.at(-1)).toBe(1_000); // one Retry-After, then the next target served

      // The stalled request ends at its upstream's headers timeout and gives the connection back.
      await expectRefusal(server, stalling, await stalled, { status: 504, code: 'UPSTREAM_TIMEOUT' }, stallingKey);
      await until(() => server.simulator.stats().active === 0);
      expectAnswered(sdk, await sdk.create(promptBody(name, 'one-connection', 'A quick answer please')), 'one-connection');
    },
  );
});

/** The embedded simulator reads at most this much of a body, then answers 413 and reads no further. */
const UPSTREAM_BODY_LIMIT_BYTES = 1024 * 1024;

describe('an upstream connection whose body the upstream refused mid-way is closed, never handed to the next tenant', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startWithConfig(
      config => ({
        ...config,
        bodyLimitBytes: 16 * 1024 * 1024,
        upstreams: {
          ...config.upstreams,
          // One connection: the next request would go on the refused one if it were kept.
          'one-connection-chat': { protocol: 'openai-chat', baseURL: 'embedded:simulator/v1', connections: 1, timeoutMs: STALL_TIMEOUT_MS },
        },
        routes: [...config.routes, { model: 'one-connection-chat', interfaces: ['chat'], targets: [{ upstream: 'one-connection-chat', model: 'sim-1' }] }],
      }),
      { simulator: { maxBodyBytes: UPSTREAM_BODY_LIMIT_BYTES } },
    );
  });
  afterAll(() => server.close(1_000));

  it("serves another account's request at once after the upstream answered 413 to a body it stopped reading", async () => {
    const firstKey = await createKey(server);
    const first = createInterfaceClient(server, 'chat', { key: firstKey });
    // Twelve times what the upstream reads: most of it is still unsent when the 413 arrives.
    const refused = await refusalOf(first.create(promptBody('chat', 'one-connection-chat', 'x'.repeat(12 * UPSTREAM_BODY_LIMIT_BYTES))));
    await expectRefusal(server, first, refused, { status: 413, code: 'PROMPT_TOO_LARGE' }, firstKey);

    const secondKey = await createKey(server);
    const second = createInterfaceClient(server, 'chat', { key: secondKey });
    const started = performance.now();
    expectAnswered(second, await second.create(promptBody('chat', 'one-connection-chat', 'A quick answer please')), 'one-connection-chat');
    expect(performance.now() - started).toBeLessThan(STALL_TIMEOUT_MS);
    expect(server.simulator.stats().requests).toBe(2);
  });
});
