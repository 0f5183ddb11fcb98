import type { GatewayConfigInput } from '@signalbox/engine';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import {
  createInterfaceClient,
  createKey,
  expectAnswered,
  expectRefusal,
  INTERFACES,
  promptBody,
  refusalOf,
  startWithConfig,
} from './refusal-helpers';

const MODEL = 'sim-via-messages';

describe('429 QUOTA_EXCEEDED: a key whose token quota is used up', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(2_000));

  it.each(INTERFACES)('on the %s interface: refused once the quota is spent, with Retry-After until the period ends', async name => {
    const key = await createKey(server, { key: { limits: { quotaTokens: 50, quotaPeriodHours: 24 } } });
    const sdk = createInterfaceClient(server, name, { key });
    await sdk.create(promptBody(name, MODEL, 'spend the quota')); // about 5 input + 64 output tokens
    const upstreamCalls = server.simulator.stats().requests;
    const refusal = await expectRefusal(
      server,
      sdk,
      await refusalOf(sdk.create(promptBody(name, MODEL, 'one more'))),
      { status: 429, code: 'QUOTA_EXCEEDED', message: /quota of 50 tokens per 24 hours/ },
      key,
    );
    expect(server.simulator.stats().requests).toBe(upstreamCalls);
    expect(refusal.retryAfter).toBeGreaterThan(23 * 3600);
    expect(refusal.retryAfter).toBeLessThanOrEqual(24 * 3600);
  });
});

describe('503 NO_ACCOUNT_AVAILABLE: a route whose upstream has no account', () => {
  let server: TestGateway;
  beforeAll(async () => {
    delete process.env.SIGNALBOX_TEST_MISSING_UPSTREAM_KEY;
    server = await startWithConfig((config: GatewayConfigInput) => ({
      ...config,
      upstreams: {
        ...config.upstreams,
        // The key's environment variable is not set: the upstream has no account to serve with.
        'no-account': { protocol: 'anthropic-messages', baseURL: 'http://127.0.0.1:9', apiKeyEnv: 'SIGNALBOX_TEST_MISSING_UPSTREAM_KEY' },
      },
      routes: [
        ...config.routes,
        { model: 'no-account', interfaces: ['responses', 'messages', 'chat'], targets: [{ upstream: 'no-account', model: 'm' }] },
        {
          model: 'no-account-with-failover',
          interfaces: ['responses', 'messages', 'chat'],
          targets: [
            { upstream: 'no-account', model: 'm' },
            { upstream: 'simulator-messages', model: 'sim-1' },
          ],
        },
      ],
    }));
  });
  afterAll(() => server.close(2_000));

  it.each(INTERFACES)('on the %s interface: 503 without calling anything, and failover to the next target when there is one', async name => {
    const sdk = createInterfaceClient(server, name, { key: server.demoKey });
    await expectRefusal(
      server,
      sdk,
      await refusalOf(sdk.create(promptBody(name, 'no-account', 'hello'))),
      { status: 503, code: 'NO_ACCOUNT_AVAILABLE' },
      server.demoKey,
    );
    const served = await sdk.create(promptBody(name, 'no-account-with-failover', 'hello'));
    expectAnswered(sdk, served, 'no-account-with-failover');
  });
});
