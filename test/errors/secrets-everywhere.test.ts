import request from 'supertest';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/start-otlp-receiver';
import type { TestGateway } from '../helpers/start-test-gateway';
import { startWithConfig } from './refusal-helpers';

/** An upstream key with no vendor shape: only the engine's exact-value recogniser knows it. */
const UPSTREAM_KEY = 'upstream-credential-of-the-secrets-test-5Qx9';
/** A route to an upstream that refuses its key and quotes it back, as OpenAI's 401 does. */
const QUOTING_ROUTE = 'quoting-upstream';

type Sent = { status: number; text: string; requestId: string };

/**
 * Where a client may put a secret by mistake (or a probe on purpose): the path, the query, the
 * `user-agent` and `accept` headers, a beta flag, and the model ID. Each sends `secret` once.
 */
const LEAK_PATHS: ReadonlyArray<{ name: string; send(server: TestGateway, secret: string): Promise<Sent> }> = [
  { name: 'the path', send: (server, secret) => send(server, 'GET', `/v1/models/${secret}/details`) },
  { name: 'the query', send: (server, secret) => send(server, 'POST', `/v1/chat/completions?note=${secret}`, chatBody('signalbox-sim')) },
  { name: 'user-agent', send: (server, secret) => send(server, 'POST', '/v1/chat/completions', chatBody('signalbox-sim'), { 'user-agent': `probe/1.0 (${secret})` }) },
  { name: 'accept', send: (server, secret) => send(server, 'POST', '/v1/chat/completions', chatBody('signalbox-sim'), { accept: `application/json, ${secret}` }) },
  {
    // Sent to a route whose upstream speaks another protocol, the flag becomes a warning in the ledger row.
    name: 'an anthropic-beta flag',
    send: (server, secret) =>
      send(server, 'POST', '/v1/messages', { model: 'sim-via-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }, { 'anthropic-beta': secret }),
  },
  { name: 'the model ID', send: (server, secret) => send(server, 'POST', '/v1/chat/completions', chatBody(secret)) },
];

function chatBody(model: string) {
  return { model, messages: [{ role: 'user', content: 'hello' }] };
}

async function send(server: TestGateway, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Sent> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.demoKey}`,
      'x-api-key': server.demoKey,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text(), requestId: response.headers.get('x-request-id') ?? '' };
}

/** A secret's random part, enough to tell a piece of it from its visible prefix. */
function tail(secret: string): string {
  return secret.slice(-16);
}

describe('no secret the gateway issues or holds reaches a log line, a ledger row, a span or an error body', () => {
  let receiver: OtlpReceiver;
  let quoting: LoopbackServer;
  let server: TestGateway;
  let closed = false;
  let panelCookie = '';
  const secrets: Array<[string, string]> = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    quoting = await listenOnLoopback((incoming, response) => {
      incoming.resume();
      incoming.on('end', () => {
        const key = String(incoming.headers.authorization).replace(/^Bearer /, '');
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
      });
    });
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: { ...config.upstreams, quoting: { protocol: 'openai-chat', baseURL: `${quoting.url}/v1`, apiKeyEnv: 'SECRETS_TEST_UPSTREAM_KEY' } },
        routes: [...config.routes, { model: QUOTING_ROUTE, interfaces: ['responses', 'messages', 'chat'], targets: [{ upstream: 'quoting', model: 'gpt-quoted' }] }],
      }),
      { tracing: { url: receiver.tracesURL, serviceName: 'signalbox-secrets' }, environment: { SECRETS_TEST_UPSTREAM_KEY: UPSTREAM_KEY } },
    );
    // An account console token and a panel session, made by the server itself.
    const admin = { authorization: `Bearer ${server.adminToken}` };
    const account = await request(server.url).post('/admin/accounts').set(admin).send({ name: 'secrets', balance: 5 });
    const token = await request(server.url).post('/admin/console-tokens').set(admin).send({ accountId: account.body.id, name: 'secrets' });
    const login = await request(server.url).post('/panel/api/login').set('origin', server.url).send({ token: token.body.secret });
    expect([account.status, token.status, login.status]).toEqual([201, 201, 200]);
    const sessionId = /signalbox_panel=([^;]+)/.exec(String(login.headers['set-cookie']))![1]!;
    panelCookie = `signalbox_panel=${sessionId}`;
    secrets.push(
      ['API key', server.demoKey],
      ['admin token', server.adminToken],
      ['account console token', token.body.secret as string],
      ['panel session id', sessionId],
      ['panel CSRF token', login.body.csrfToken as string],
      ['upstream key', UPSTREAM_KEY],
    );
  });
  afterAll(async () => {
    if (!closed) await server.close(1_000);
    await Promise.all([receiver.close(), quoting.close()]);
  });

  it.each(LEAK_PATHS.map(path => [path.name, path] as const))('in %s: the access line or usage record shows [redacted], and no line or answer holds any piece of it', async (_name, path) => {
    for (const [kind, secret] of secrets) {
      const sent = await path.send(server, secret);
      const logged = await server.linesAbout(sent.requestId);
      const access = logged.find(line => line.includes('"msg":"http request"'));
      const record = server.recentUsage().find(usage => usage.requestId === sent.requestId);

      expect({ kind, answered: sent.status < 500, shown: `${access}${JSON.stringify(record)}`.includes('[redacted]') }).toEqual({ kind, answered: true, shown: true });
      for (const text of [sent.text, ...logged]) expect({ kind, leaked: text.includes(tail(secret)) }).toEqual({ kind, leaked: false });
    }
  });

  it('in the model ID: the debug lines say [redacted] where the refusal and the usage line quote it', async () => {
    for (const [kind, secret] of secrets) {
      const sent = await send(server, 'POST', '/v1/chat/completions', chatBody(secret));
      const logged = (await server.linesAbout(sent.requestId)).map(line => JSON.parse(line) as Record<string, unknown>);

      expect({ kind, answer: JSON.parse(sent.text).error.message as string }).toEqual({ kind, answer: expect.stringContaining("The model '[redacted]' does not exist.") });
      expect(logged.find(line => line.msg === 'request refused')).toMatchObject({ level: 20, message: expect.stringContaining("The model '[redacted]' does not exist.") });
      expect(logged.find(line => line.msg === 'usage recorded')).toMatchObject({ level: 20, usage: { model: '[redacted]', status: 404 } });
    }
  });

  it('echoes none in the admin API’s or the panel’s 404 for a path that holds one', async () => {
    for (const [kind, secret] of secrets) {
      const adminAnswer = await request(server.url).get(`/admin/${secret}`).set({ authorization: `Bearer ${server.adminToken}` });
      const panelAnswer = await request(server.url).get(`/panel/api/${secret}`).set('cookie', panelCookie);
      expect({ kind, statuses: [adminAnswer.status, panelAnswer.status] }).toEqual({ kind, statuses: [404, 404] });
      for (const text of [adminAnswer.text, panelAnswer.text]) {
        expect({ kind, redacted: text.includes('[redacted]'), leaked: text.includes(tail(secret)) }).toEqual({ kind, redacted: true, leaked: false });
      }
    }
  });

  it('quotes an upstream’s refusal to the client without the upstream key it quoted, and logs only its digest', async () => {
    const sent = await send(server, 'POST', '/v1/chat/completions', chatBody(QUOTING_ROUTE));

    expect(sent.status).toBe(502);
    expect(JSON.parse(sent.text)).toMatchObject({ code: 'UPSTREAM_AUTH_FAILED', error: { message: expect.stringContaining('Incorrect API key provided: [redacted].') } });
    for (const text of [sent.text, ...(await server.linesAbout(sent.requestId))]) expect(text).not.toContain(tail(UPSTREAM_KEY));
  });

  it('keeps none in the usage ledger: a model or a flag that was a secret is stored [redacted]', async () => {
    const rows = await request(server.url).get('/admin/usage?limit=500').set({ authorization: `Bearer ${server.adminToken}` });
    expect(rows.status).toBe(200);
    const ledger = JSON.stringify(rows.body);
    for (const [kind, secret] of secrets) expect({ kind, leaked: ledger.includes(tail(secret)) }).toEqual({ kind, leaked: false });
    const models = (rows.body.data as Array<{ model?: string; warnings?: string[] }>).map(row => row.model);
    // Sent as the model twice: by the leak-path case and by the debug-line case.
    expect(models.filter(model => model === '[redacted]')).toHaveLength(2 * secrets.length);
    const flagged = (rows.body.data as Array<{ warnings?: string[] }>).filter(row => row.warnings?.some(warning => warning.startsWith('anthropic-beta: [redacted]')));
    expect(flagged).toHaveLength(secrets.length);
  });

  it('exports no span holding one, the model the client asked for included', async () => {
    closed = true;
    // Closing flushes the batched spans to the receiver, and runs the log audit (every secret shape).
    await server.close(1_000);

    const requestModels = receiver.spans().map(span => span.attributes['gen_ai.request.model']);
    expect(requestModels.filter(model => model === '[redacted]')).toHaveLength(2 * secrets.length);
    const exported = receiver.bodies().join('\n');
    for (const [kind, secret] of secrets) expect({ kind, leaked: exported.includes(tail(secret)) }).toEqual({ kind, leaked: false });
  });
});
