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

const MODEL = 'signalbox-sim';
const GOLD_MODEL = 'sim-gold-only';
const PROMPT = 'Tell me about freight yards';

type KeySetup = Parameters<typeof createKey>[1];

/** A condition of the key or its account that refuses the request with a 403. */
type AccessRow = {
  refused: string;
  code: string;
  message: RegExp;
  /** The key to send; a function, as some conditions depend on the time of the test. */
  key: (server: TestGateway) => KeySetup;
  model: string;
  /** `error.param` on the OpenAI envelope, when the refusal names a field. */
  param?: string;
  /** A request that passes where this one was refused: the condition, not the route, refused it. */
  served?: { key?: (server: TestGateway) => KeySetup; model: string };
};

const ACCESS_ROWS: readonly AccessRow[] = [
  {
    refused: 'an expired key',
    code: 'API_KEY_EXPIRED',
    message: /expired/,
    key: server => ({ key: { expiresAt: server.clock.now() - 60_000 } }),
    model: MODEL,
  },
  {
    refused: 'a model outside the key’s allowed models',
    code: 'MODEL_NOT_ALLOWED',
    message: new RegExp(MODEL),
    key: () => ({ key: { allowedModels: ['sim-via-chat'] } }),
    model: MODEL,
    param: 'model',
    served: { model: 'sim-via-chat' },
  },
  {
    refused: 'a route limited to groups the key is not in',
    code: 'GROUP_NOT_ALLOWED',
    message: /silver/,
    key: () => ({ account: { group: 'silver' } }),
    model: GOLD_MODEL,
    served: { key: () => ({ account: { group: 'silver' }, key: { group: 'gold' } }), model: GOLD_MODEL },
  },
  {
    refused: 'a key whose account subscription is inactive',
    code: 'SUBSCRIPTION_INACTIVE',
    message: /subscription/,
    key: () => ({ account: { subscription: 'inactive' } }),
    model: MODEL,
  },
  {
    refused: 'an account with no balance',
    code: 'INSUFFICIENT_BALANCE',
    message: /balance/,
    key: () => ({ account: { balanceMicros: 0 } }),
    model: MODEL,
  },
];

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
    it.each(ACCESS_ROWS)('refuses $refused: 403 $code, before any upstream call', async row => {
      const key = await createKey(server, row.key(server));
      const client = createInterfaceClient(server, name, { key });
      const upstreamCalls = server.simulator.stats().requests;
      const failure = await refusalOf(client.create(promptBody(name, row.model, PROMPT)));
      const param = name === 'messages' ? undefined : row.param;
      await expectRefusal(
        server,
        client,
        failure,
        { status: 403, code: row.code, message: row.message, param },
        key,
      );
      expect(server.simulator.stats().requests).toBe(upstreamCalls);
      if (row.served === undefined) return;
      const servedKey = row.served.key === undefined ? key : await createKey(server, row.served.key(server));
      const served = createInterfaceClient(server, name, { key: servedKey });
      expectAnswered(
        served,
        await served.create(promptBody(name, row.served.model, PROMPT)),
        row.served.model,
      );
    });

    it('serves a key until the gateway’s clock passes its expiry, then refuses it: 403 API_KEY_EXPIRED', async () => {
      const key = await createKey(server, { key: { expiresAt: server.clock.now() + 60_000 } });
      const client = createInterfaceClient(server, name, { key });
      expectAnswered(client, await client.create(promptBody(name, MODEL, PROMPT)), MODEL);
      server.clock.advance(60_001);
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        client,
        failure,
        { status: 403, code: 'API_KEY_EXPIRED', message: /expired/ },
        key,
      );
    });
  });
});
