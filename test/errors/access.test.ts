import type { TestGateway } from '../helpers/start-test-gateway';
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

const MODEL = 'switchyard-sim';
const GOLD_MODEL = 'sim-gold-only';
const PROMPT = 'Tell me about freight yards';

describe('403: the key or its account may not make this request', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startWithConfig(config => ({
      ...config,
      routes: [
        ...config.routes,
        {
          model: GOLD_MODEL,
          interfaces: ['responses', 'messages', 'chat'],
          targets: [{ upstream: 'simulator-messages', model: 'sim-1' }],
          groups: ['gold'],
          pricing: { inputPerMillion: 0.5, outputPerMillion: 1.5 },
        },
      ],
    }));
  });
  afterAll(() => server.close(1_000));

  describe.each(INTERFACES)('on the %s interface', name => {
    it('refuses an expired key: 403 API_KEY_EXPIRED', async () => {
      const key = await createKey(server, { key: { expiresAt: Date.now() - 60_000 } });
      const client = createInterfaceClient(server, name, { key });
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        client,
        failure,
        { status: 403, code: 'API_KEY_EXPIRED', message: /expired/ },
        key,
      );
    });

    it('refuses a model outside the key’s allowed models: 403 MODEL_NOT_ALLOWED', async () => {
      const key = await createKey(server, { key: { allowedModels: ['sim-via-chat'] } });
      const client = createInterfaceClient(server, name, { key });
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      const param = name === 'messages' ? undefined : 'model';
      await expectRefusal(
        server,
        client,
        failure,
        { status: 403, code: 'MODEL_NOT_ALLOWED', message: new RegExp(MODEL), param },
        key,
      );
      expectAnswered(client, await client.create(promptBody(name, 'sim-via-chat', PROMPT)), 'sim-via-chat');
    });

    it('refuses a route limited to groups the key is not in: 403 GROUP_NOT_ALLOWED (a gold key passes)', async () => {
      const silver = await createKey(server, { account: { group: 'silver' } });
      const client = createInterfaceClient(server, name, { key: silver });
      const failure = await refusalOf(client.create(promptBody(name, GOLD_MODEL, PROMPT)));
      await expectRefusal(
        server,
        client,
        failure,
        { status: 403, code: 'GROUP_NOT_ALLOWED', message: /silver/ },
        silver,
      );
      const gold = await createKey(server, { account: { group: 'silver' }, key: { group: 'gold' } });
      const goldClient = createInterfaceClient(server, name, { key: gold });
      expectAnswered(goldClient, await goldClient.create(promptBody(name, GOLD_MODEL, PROMPT)), GOLD_MODEL);
    });

    it('refuses a key whose account subscription is inactive: 403 SUBSCRIPTION_INACTIVE', async () => {
      const key = await createKey(server, { account: { subscription: 'inactive' } });
      const client = createInterfaceClient(server, name, { key });
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        client,
        failure,
        { status: 403, code: 'SUBSCRIPTION_INACTIVE', message: /subscription/ },
        key,
      );
    });

    it('refuses an account with no balance: 403 INSUFFICIENT_BALANCE, before any upstream call', async () => {
      const key = await createKey(server, { account: { balanceMicros: 0 } });
      const client = createInterfaceClient(server, name, { key });
      const upstreamCalls = server.simulator.stats().requests;
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        client,
        failure,
        { status: 403, code: 'INSUFFICIENT_BALANCE', message: /balance/ },
        key,
      );
      expect(server.simulator.stats().requests).toBe(upstreamCalls);
    });
  });
});
