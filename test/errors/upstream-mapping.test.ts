import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { enableEveryCredential } from '../helpers/enable-every-credential';
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
/** Each interface in front of another protocol (an upstream timeout really waits about 1 s, so one pair per interface). */
const CROSS_PAIRS: ReadonlyArray<readonly [InterfaceName, UpstreamKind]> = [
  ['responses', 'messages'],
  ['messages', 'responses'],
  ['chat', 'messages'],
];

/** The simulator sends `retry-after: 1` with 429, 503 and 529; the gateway honours it before attempts 2 and 3. */
const RETRY_AFTER_WAITS = [1_000, 1_000];

/** An upstream HTTP error (the simulator's `[[sim:status=N]]`) and the answer the client must get. */
type UpstreamStatusRow = {
  upstream: number;
  status: number;
  code: string;
  /** Why this is the right answer, for the test's title. */
  because: string;
  attempts: number;
  /** The waits the gateway asked for between attempts, in ms. */
  waits: readonly number[];
  message?: RegExp;
  /** The `Retry-After` the client gets, in seconds. */
  retryAfter?: number;
};

const AUTH_FAILED = 'the gateway’s own upstream credential failed, not the client’s key';
const UPSTREAM_STATUS_ROWS: readonly UpstreamStatusRow[] = [
  { upstream: 401, status: 502, code: 'UPSTREAM_AUTH_FAILED', because: AUTH_FAILED, attempts: 1, waits: [] },
  { upstream: 403, status: 502, code: 'UPSTREAM_AUTH_FAILED', because: AUTH_FAILED, attempts: 1, waits: [] },
  {
    upstream: 400,
    status: 400,
    code: 'UPSTREAM_INVALID_REQUEST',
    because: 'carrying the upstream’s message, without a retry',
    attempts: 1,
    waits: [],
    message: /Simulated HTTP 400/,
  },
  {
    upstream: 429,
    status: 429,
    code: 'UPSTREAM_RATE_LIMITED',
    because: 'passing on the upstream’s Retry-After once 3 attempts honoured it',
    attempts: 3,
    waits: RETRY_AFTER_WAITS,
    retryAfter: 1,
  },
  {
    upstream: 503,
    status: 503,
    code: 'UPSTREAM_OVERLOADED',
    because: 'once 3 attempts honoured its Retry-After',
    attempts: 3,
    waits: RETRY_AFTER_WAITS,
  },
  {
    upstream: 529,
    status: 503,
    code: 'UPSTREAM_OVERLOADED',
    because: 'once 3 attempts honoured its Retry-After',
    attempts: 3,
    waits: RETRY_AFTER_WAITS,
  },
];

const UPSTREAM_CREDENTIAL = 'upstream-credential-of-the-error-tests';
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

describe('upstream failures are answered in the caller’s envelope with the gateway’s own status and code', () => {
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
        for (const upstream of Object.values(upstreams)) upstream.apiKeyEnv = 'ERROR_TESTS_UPSTREAM_KEY';
        return { ...config, upstreams, routes };
      },
      { environment: { ERROR_TESTS_UPSTREAM_KEY: UPSTREAM_CREDENTIAL } },
    );
  });
  afterAll(async () => {
    await server.close(1_000);
    await new Promise(resolve => scripted.close(resolve));
  });
  // Each test makes the same upstreams fail on purpose: what the gateway learns of their health (a
  // refused key taken out, a cooldown, failures counted towards a circuit) is undone between tests.
  afterEach(() => enableEveryCredential(server));

  /** Sends `[[sim:…]]` directives through `model` and returns the client and its refusal. */
  async function refuse(name: InterfaceName, model: string, directive: string) {
    const client = createInterfaceClient(server, name, { key: server.demoKey! });
    const failure = await refusalOf(client.create(promptBody(name, model, `${directive} please answer`)));
    return { client, failure };
  }
  const secrets = [UPSTREAM_CREDENTIAL];

  describe.each(ALL_PAIRS)('%s interface, %s upstream', (name, kind) => {
    it.each(UPSTREAM_STATUS_ROWS)('answers an upstream $upstream with $status $code: $because', async row => {
      const calls = server.simulator.stats().requests;
      const waited = server.sleeps.length;
      const { client, failure } = await refuse(name, `sim-via-${kind}`, `[[sim:status=${row.upstream}]]`);
      const refusal = await expectRefusal(
        server,
        client,
        failure,
        { status: row.status, code: row.code, ...(row.message && { message: row.message }), secrets },
        server.demoKey,
      );
      expect(refusal.record.attempts).toBe(row.attempts);
      expect(server.simulator.stats().requests - calls).toBe(row.attempts);
      expect(server.sleeps.slice(waited)).toEqual(row.waits);
      if (row.retryAfter !== undefined) expect(refusal.retryAfter).toBe(row.retryAfter);
    });

    it('answers a streaming request whose upstream refuses before the first byte with a JSON error, not a stream', async () => {
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

    it('keeps the upstream’s own error code in error.code (OpenAI envelope) and the service code at the top level', async () => {
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

    it('retries an upstream nobody listens on after a growing, jittered backoff, then answers 502 UPSTREAM_UNREACHABLE', async () => {
      const waited = server.sleeps.length;
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
      // The default retry policy: 250 ms, then 500 ms, each shortened by up to a quarter at random.
      const [first, second, ...more] = server.sleeps.slice(waited);
      expect(more).toEqual([]);
      expect(first).toBeGreaterThan(187.5);
      expect(first).toBeLessThanOrEqual(250);
      expect(second).toBeGreaterThan(375);
      expect(second).toBeLessThanOrEqual(500);
    });
  });

  // `timeout_error` is a type of Anthropic's error envelope (https://docs.anthropic.com/en/api/errors); in
  // the OpenAI envelope a gateway timeout is a `server_error` whose code says `timeout`.
  it.each(['responses', 'chat'] as const)(
    'answers an upstream timeout on the %s interface with 504, error.type server_error and error.code timeout',
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
    'leaves error.code null on the %s interface when the %s upstream’s 400 carried no code of its own',
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
    it(`answers 504 UPSTREAM_TIMEOUT when the upstream sends nothing within timeoutMs (${TIMEOUT_MS} ms), and gives the upstream call up`, async () => {
      const aborted = server.simulator.stats().aborted;
      const started = performance.now();
      const { client, failure } = await refuse(name, `hang-via-${kind}`, '[[sim:hang]]');
      // undici's headers timer ticks in ~1 s steps, so a sub-second timeoutMs fires at about 1 s (never the 60 s default).
      expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
      // The OpenAI envelope's error.type has a test of its own above, so a wrong type fails that test alone.
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
  });
});
