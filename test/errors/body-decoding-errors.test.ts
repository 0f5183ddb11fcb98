import { brotliCompressSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

type Endpoint = { name: string; path: string; headers: () => Record<string, string>; body: () => object };
type Answer = { status: number; code: string | undefined; requestId: string | null; bodyRequestId: unknown };

/** A gzip body with its deflate data overwritten: the header reads as gzip, the rest does not decode. */
function corruptGzip(json: Buffer): Buffer {
  const bytes = gzipSync(json);
  bytes.fill(0x7a, 12, 24);
  return bytes;
}

/** Bodies that do not decode as the `Content-Encoding` they are sent with, and what each must be answered with. */
const BAD_BODIES: readonly { name: string; encoding: string; encode: (json: Buffer) => Buffer; status: number; code: string }[] = [
  { name: 'a corrupt gzip body', encoding: 'gzip', encode: corruptGzip, status: 400, code: 'INVALID_REQUEST' },
  { name: 'a gzip body labelled br', encoding: 'br', encode: json => gzipSync(json), status: 400, code: 'INVALID_REQUEST' },
  { name: 'a brotli body labelled gzip', encoding: 'gzip', encode: json => brotliCompressSync(json), status: 400, code: 'INVALID_REQUEST' },
  { name: 'a zstd body labelled deflate', encoding: 'deflate', encode: json => zstdCompressSync(json), status: 400, code: 'INVALID_REQUEST' },
  { name: 'plain JSON labelled zstd', encoding: 'zstd', encode: json => json, status: 400, code: 'INVALID_REQUEST' },
  { name: 'a gzip body cut short', encoding: 'gzip', encode: json => gzipSync(json).subarray(0, 20), status: 400, code: 'INVALID_REQUEST' },
  { name: 'an encoding no one decodes', encoding: 'compress', encode: json => json, status: 415, code: 'UNSUPPORTED_CONTENT_ENCODING' },
  { name: 'a chain of encodings', encoding: 'gzip, br', encode: json => brotliCompressSync(gzipSync(json)), status: 415, code: 'UNSUPPORTED_CONTENT_ENCODING' },
];

/**
 * A body that does not decode as its `Content-Encoding` says is the client's mistake on every
 * endpoint: a 4xx in the endpoint's own envelope with a request id, never a 500, and never an
 * `error` line in the log.
 */
describe('request bodies that do not decode, on every endpoint family', () => {
  let server: TestGateway;
  let panel: { cookie: string; csrfToken: string };
  beforeAll(async () => {
    server = await startTestGateway();
    const login = await fetch(`${server.url}/panel/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ token: server.adminToken }),
    });
    panel = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, csrfToken: ((await login.json()) as { csrfToken: string }).csrfToken };
  });
  afterAll(() => server.close(1_000));

  const ENDPOINTS: readonly Endpoint[] = [
    { name: 'POST /v1/responses', path: '/v1/responses', headers: () => ({ authorization: `Bearer ${server.demoKey}` }), body: () => ({ model: 'signalbox-sim', input: 'hi' }) },
    {
      name: 'POST /v1/messages',
      path: '/v1/messages',
      headers: () => ({ 'x-api-key': server.demoKey, 'anthropic-version': '2023-06-01' }),
      body: () => ({ model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    },
    {
      name: 'POST /v1/chat/completions',
      path: '/v1/chat/completions',
      headers: () => ({ authorization: `Bearer ${server.demoKey}` }),
      body: () => ({ model: 'signalbox-sim', messages: [{ role: 'user', content: 'hi' }] }),
    },
    { name: 'POST /admin/accounts', path: '/admin/accounts', headers: () => ({ authorization: `Bearer ${server.adminToken}` }), body: () => ({ name: 'team' }) },
    { name: 'POST /panel/api/login (unauthenticated)', path: '/panel/api/login', headers: () => ({ origin: server.url }), body: () => ({ token: server.adminToken }) },
    {
      name: 'POST /panel/api/accounts (in a session)',
      path: '/panel/api/accounts',
      headers: () => ({ origin: server.url, cookie: panel.cookie, 'x-csrf-token': panel.csrfToken }),
      body: () => ({ name: 'team' }),
    },
  ];

  async function post(endpoint: Endpoint, encoding: string, bytes: Buffer): Promise<Answer> {
    const response = await fetch(`${server.url}${endpoint.path}`, {
      method: 'POST',
      headers: { ...endpoint.headers(), 'content-type': 'application/json', 'content-encoding': encoding },
      body: new Uint8Array(bytes),
    });
    const body = (await response.json()) as { code?: string; request_id?: unknown; error?: { code?: string } };
    return { status: response.status, code: body.code ?? body.error?.code, requestId: response.headers.get('x-request-id'), bodyRequestId: body.request_id };
  }

  const cases = ENDPOINTS.flatMap(endpoint => BAD_BODIES.map(bad => [endpoint.name, bad.name, endpoint, bad] as const));

  it.each(cases)('%s: %s is a 4xx naming the problem, with a request id', async (_endpoint, _bad, endpoint, bad) => {
    const answer = await post(endpoint, bad.encoding, bad.encode(Buffer.from(JSON.stringify(endpoint.body()))));
    expect({ status: answer.status, code: answer.code }).toEqual({ status: bad.status, code: bad.code });
    expect(answer.requestId).toMatch(/^req_/);
    expect(answer.bodyRequestId).toBe(answer.requestId);
  });

  it('answers a panel login posted as a form the same way', async () => {
    const form = Buffer.from(`token=${encodeURIComponent(server.adminToken)}`);
    const send = (encoding: string, bytes: Buffer) =>
      fetch(`${server.url}/panel/api/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': encoding },
        body: new Uint8Array(bytes),
      });
    const refused = await send('br', gzipSync(form));
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([400, 'INVALID_REQUEST']);
    const accepted = await send('gzip', gzipSync(form));
    expect([accepted.status, accepted.headers.get('location')]).toEqual([303, '/panel/models']);
  });

  it('logged no error line for any of them (the refusals are debug lines)', () => {
    const levels = server.audit.lines().map(line => (JSON.parse(line) as { level: number }).level);
    expect(levels.filter(level => level < 50).length).toBeGreaterThan(BAD_BODIES.length);
    expect(levels.filter(level => level >= 50)).toEqual([]);
  });

  it('still reads a well-encoded body on each family (the panel login opens a session)', async () => {
    const login = ENDPOINTS.find(endpoint => endpoint.path === '/panel/api/login')!;
    const answer = await post(login, 'gzip', gzipSync(Buffer.from(JSON.stringify(login.body()))));
    expect(answer.status).toBe(200);
    const admin = ENDPOINTS.find(endpoint => endpoint.path === '/admin/accounts')!;
    expect((await post(admin, 'br', brotliCompressSync(Buffer.from(JSON.stringify(admin.body()))))).status).toBe(201);
  });
});
