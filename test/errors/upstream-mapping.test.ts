import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestGateway } from '../helpers/start-test-gateway';
import {
  createInterfaceClient,
  expectRefusal,
  INTERFACES,
  promptBody,
  refusalOf,
  sleep,
  startWithConfig,
  type InterfaceName,
} from './refusal-helpers';

/** The upstream protocols, by the suffix of the example config's upstream and route names. */
type UpstreamKind = 'responses' | 'messages' | 'chat';
const UPSTREAM_KINDS: readonly UpstreamKind[] = ['responses', 'messages', 'chat'];
const PROTOCOL = {
  responses: 'openai-responses',
  messages: 'anthropic-messages',
  chat: 'openai-chat',
} as const;
/** Every interface in front of every upstream protocol. */
const ALL_PAIRS = INTERFACES.flatMap(name => UPSTREAM_KINDS.map(kind => [name, kind] as const));
/** Each interface in front of another protocol (the retried and timed rows take 1–2 s each, so one pair per interface). */
const CROSS_PAIRS: ReadonlyArray<readonly [InterfaceName, UpstreamKind]> = [
  ['responses', 'messages'],
  ['messages', 'responses'],
  ['chat', 'messages'],
];

const UPSTREAM_CREDENTIAL = 'upstream-credential-of-the-taxonomy-tests';
const TIMEOUT_MS = 300;
/** What the scripted upstream answers every request with: a 400 carrying the provider's own code. */
const SCRIPTED = {
  openAI: { message: 'Invalid value for temperature: scripted refusal.', code: 'invalid_value' },
  anthropic: { message: 'temperature: scripted refusal from the provider.', code: 'scripted_error_code' },
};

const baseURL = (origin: string, kind: UpstreamKind) => (kind === 'messages' ? origin : `${origin}/v1`);

function startScriptedUpstream(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const anthropic = request.url?.startsWith('/v1/messages') === true;
      const body = anthropic
        ? {
            type: 'error',
            error: {
              type: 'invalid_request_error',
              message: SCRIPTED.anthropic.message,
              details: { error_code: SCRIPTED.anthropic.code },
            },
            request_id: 'req_scripted',
          }
        : {
            error: {
              message: SCRIPTED.openAI.message,
              type: 'invalid_request_error',
              param: 'temperature',
              code: SCRIPTED.openAI.code,
            },
          };
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}

describe('upstream failures mapped to the taxonomy (DESIGN §4 and §5, protocols.md §6.3)', () => {
  let server: TestGateway;
  let scripted: Server;
  beforeAll(async () => {
    scripted = await startScriptedUpstream();
    const scriptedOrigin = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}`;
    const deadOrigin = `http://127.0.0.1:${await closedPort()}`;
    server = await startWithConfig(
      config => {
        const upstreams = { ...config.upstreams };
        const routes = [...config.routes];
        for (const kind of UPSTREAM_KINDS) {
          const protocol = PROTOCOL[kind];
          upstreams[`hang-${kind}`] = {
            protocol,
            baseURL: baseURL('embedded:simulator', kind),
            timeoutMs: TIMEOUT_MS,
          };
          upstreams[`dead-${kind}`] = {
            protocol,
            baseURL: baseURL(deadOrigin, kind),
            connectTimeoutMs: 1_000,
          };
          upstreams[`scripted-${kind}`] = { protocol, baseURL: baseURL(scriptedOrigin, kind) };
          for (const prefix of ['hang', 'dead', 'scripted']) {
            routes.push({
              model: `${prefix}-via-${kind}`,
              interfaces: ['responses', 'messages', 'chat'],
              targets: [{ upstream: `${prefix}-${kind}`, model: 'sim-1' }],
            });
          }
        }
        for (const upstream of Object.values(upstreams)) upstream.apiKeyEnv = 'TAXONOMY_UPSTREAM_KEY';
        return { ...config, upstreams, routes };
      },
      { environment: { TAXONOMY_UPSTREAM_KEY: UPSTREAM_CREDENTIAL } },
    );
  });
  afterAll(async () => {
    await server.close(1_000);
    await new Promise(resolve => scripted.close(resolve));
  });

  /** Sends `[[sim:…]]` directives through `model` and returns the client and its refusal. */
  async function refuse(name: InterfaceName, model: string, directive: string) {
    const client = createInterfaceClient(server, name, { key: server.demoKey! });
    const failure = await refusalOf(client.create(promptBody(name, model, `${directive} please answer`)));
    return { client, failure };
  }
  const secrets = [UPSTREAM_CREDENTIAL];

  describe.each(ALL_PAIRS)('%s interface, %s upstream', (name, kind) => {
    it.each([401, 403])(
      'turns an upstream %i into 502 UPSTREAM_AUTH_FAILED, never a 401 to the client',
      async status => {
        const { client, failure } = await refuse(name, `sim-via-${kind}`, `[[sim:status=${status}]]`);
        const refusal = await expectRefusal(
          server,
          client,
          failure,
          { status: 502, code: 'UPSTREAM_AUTH_FAILED', secrets },
          server.demoKey,
        );
        expect(refusal.record.attempts).toBe(1);
      },
    );

    it('answers a streaming request whose upstream refuses before the first byte with an HTTP error, not a stream', async () => {
      const client = createInterfaceClient(server, name, { key: server.demoKey! });
      const failure = await refusalOf(
        client.stream(promptBody(name, `sim-via-${kind}`, '[[sim:status=403]] stream please')),
      );
      await expectRefusal(
        server,
        client,
        failure,
        { status: 502, code: 'UPSTREAM_AUTH_FAILED', secrets },
        server.demoKey,
      );
      expect(client.last().headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('turns an upstream 400 into 400 UPSTREAM_INVALID_REQUEST carrying the upstream’s message', async () => {
      const { client, failure } = await refuse(name, `sim-via-${kind}`, '[[sim:status=400]]');
      const refusal = await expectRefusal(
        server,
        client,
        failure,
        { status: 400, code: 'UPSTREAM_INVALID_REQUEST', message: /Simulated HTTP 400/, secrets },
        server.demoKey,
      );
      expect(refusal.record.attempts).toBe(1);
    });

    it('keeps the upstream’s own error code in error.code (OpenAI envelope), the service code top-level', async () => {
      const client = createInterfaceClient(server, name, { key: server.demoKey! });
      const failure = await refusalOf(
        client.create(promptBody(name, `scripted-via-${kind}`, 'any prompt at all')),
      );
      const said = kind === 'messages' ? SCRIPTED.anthropic : SCRIPTED.openAI;
      await expectRefusal(
        server,
        client,
        failure,
        {
          status: 400,
          code: 'UPSTREAM_INVALID_REQUEST',
          message: new RegExp(said.message.replace('.', '\\.')),
          openAICode: name === 'messages' ? undefined : said.code,
          secrets,
        },
        server.demoKey,
      );
    });
  });

  it.each(['responses', 'chat'] as const)(
    'renders a 504 on the %s interface with OpenAI error.type server_error and code timeout (protocols.md §6.3), not timeout_error',
    async name => {
      const { client, failure } = await refuse(name, 'hang-via-messages', '[[sim:hang]]');
      await expectRefusal(
        server,
        client,
        failure,
        {
          status: 504,
          code: 'UPSTREAM_TIMEOUT',
          openAIType: /^server_error$/,
          openAICode: 'timeout',
          secrets,
        },
        server.demoKey,
      );
    },
  );

  it.each([
    ['responses', 'messages'],
    ['chat', 'responses'],
  ] as const)(
    'leaves error.code null on the %s interface when the %s upstream’s 400 carried no code (protocols.md §6.3: original code if known, else null)',
    async (name, kind) => {
      const { client, failure } = await refuse(name, `sim-via-${kind}`, '[[sim:status=400]]');
      await expectRefusal(
        server,
        client,
        failure,
        { status: 400, code: 'UPSTREAM_INVALID_REQUEST', openAICode: null, secrets },
        server.demoKey,
      );
    },
  );

  describe.each(CROSS_PAIRS)('%s interface, %s upstream', (name, kind) => {
    it('turns an upstream 429 into 429 UPSTREAM_RATE_LIMITED with the upstream’s Retry-After, after 3 attempts', async () => {
      const calls = server.simulator.stats().requests;
      const { client, failure } = await refuse(name, `sim-via-${kind}`, '[[sim:status=429]]');
      const refusal = await expectRefusal(
        server,
        client,
        failure,
        { status: 429, code: 'UPSTREAM_RATE_LIMITED', secrets },
        server.demoKey,
      );
      expect(refusal.retryAfter).toBe(1); // the simulator's own `retry-after: 1`
      expect(refusal.record.attempts).toBe(3);
      expect(server.simulator.stats().requests - calls).toBe(3);
    });

    it.each([503, 529])('turns an upstream %i into 503 UPSTREAM_OVERLOADED', async status => {
      const { client, failure } = await refuse(name, `sim-via-${kind}`, `[[sim:status=${status}]]`);
      const refusal = await expectRefusal(
        server,
        client,
        failure,
        { status: 503, code: 'UPSTREAM_OVERLOADED', secrets },
        server.demoKey,
      );
      expect(refusal.record.attempts).toBe(3);
    });

    it(`turns an upstream that does not answer within timeoutMs (${TIMEOUT_MS} ms) into 504 UPSTREAM_TIMEOUT`, async () => {
      const aborted = server.simulator.stats().aborted;
      const started = performance.now();
      const { client, failure } = await refuse(name, `hang-via-${kind}`, '[[sim:hang]]');
      // undici's headers timer ticks in ~1 s steps, so a sub-second timeoutMs fires at about 1 s (never the 60 s default).
      expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
      // error.type on the OpenAI envelope is checked on its own above (a known deviation), so one bug fails one test.
      const openAIType = /^(server_error|timeout_error)$/;
      const refusal = await expectRefusal(
        server,
        client,
        failure,
        { status: 504, code: 'UPSTREAM_TIMEOUT', openAIType, secrets },
        server.demoKey,
      );
      expect(refusal.record.attempts).toBe(1);
      for (let waited = 0; waited < 1_000 && server.simulator.stats().aborted === aborted; waited += 20)
        await sleep(20);
      expect(server.simulator.stats().aborted).toBe(aborted + 1); // the hanging upstream call was given up, not leaked
    });

    it('turns an upstream nobody listens on into 502 UPSTREAM_UNREACHABLE', async () => {
      const client = createInterfaceClient(server, name, { key: server.demoKey! });
      const failure = await refusalOf(client.create(promptBody(name, `dead-via-${kind}`, 'anyone there?')));
      const refusal = await expectRefusal(
        server,
        client,
        failure,
        { status: 502, code: 'UPSTREAM_UNREACHABLE', secrets },
        server.demoKey,
      );
      expect(refusal.record.attempts).toBe(3);
    });
  });
});
