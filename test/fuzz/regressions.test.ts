import { createFuzzTally } from './create-fuzz-tally';
import { endpointNamed, type FuzzEndpoint } from './fuzz-endpoints';
import { exchange, startFuzzGateway, type ExchangeExpectation, type FuzzGateway } from './fuzz-gateway';
import type { RawRequest } from './send-raw-request';

/**
 * The fuzzers' shrunk counterexamples, one test per gateway bug they found, named after the bug:
 * each failed until its fix landed and stays as a regression test.
 */
describe('fuzz regressions', () => {
  let gateway: FuzzGateway;
  const tally = createFuzzTally('regressions');
  beforeAll(async () => {
    gateway = await startFuzzGateway();
  });
  afterAll(() => gateway.close(1_000));

  const SECRET = `sy-${'A'.repeat(40)}`; // key-shaped, built at run time (no key-like literal in source)
  const json = (endpoint: FuzzEndpoint, body: unknown, extra: Array<[string, string]> = []): RawRequest => ({
    method: 'POST',
    path: endpoint.path,
    headers: [...endpoint.authHeaders(gateway.demoKey), ['content-type', 'application/json'], ...extra],
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  });
  const expectSound = (request: RawRequest, expectation: ExchangeExpectation = {}) =>
    exchange(gateway, tally, request, expectation);
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it.each([
    [
      'responses',
      `{"model":"switchyard-sim","input":"hi","tools":[{"type":"function","name":"f","parameters":{"type":"object","properties":${deep(10_000)}}}]}`,
    ],
    [
      'messages',
      `{"model":"switchyard-sim","max_tokens":16,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","input_schema":{"type":"object","properties":${deep(10_000)}}}]}`,
    ],
    [
      'chat',
      `{"model":"switchyard-sim","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deep(10_000)}}}]}`,
    ],
  ] as const)(
    'deeply nested free-form JSON gets a 500 instead of a 4xx (%s, 10 000 levels in a tool schema)',
    async (name, body) => {
      await expectSound(json(endpointNamed(name), body));
    },
  );

  it.each([
    ['an empty body', Buffer.alloc(0)],
    ['bytes that are not gzip', Buffer.from('{"model":"switchyard-sim","input":"hi"}')],
  ])(
    'a body that fails to decompress gets a 500 instead of a 400 (Content-Encoding: gzip, %s)',
    async (_case, body) => {
      const endpoint = endpointNamed('messages');
      await expectSound({ ...json(endpoint, '', [['content-encoding', 'gzip']]), body });
    },
  );

  it('a malformed percent-escape in an admin id gets a 500 instead of a 400 (PATCH /admin/keys/%zz)', async () => {
    await expectSound({
      method: 'PATCH',
      path: '/admin/keys/%zz',
      headers: [['authorization', `Bearer ${gateway.adminToken}`]],
    });
  });

  it('a key in the path comes back in the 404 message (POST /v1/responses/<key>)', async () => {
    const endpoint = endpointNamed('responses');
    await expectSound(
      { ...json(endpoint, { model: 'switchyard-sim', input: 'hi' }), path: `/v1/responses/${SECRET}` },
      { secrets: [SECRET] },
    );
  });

  it.each([
    ['responses', 'as the model', { model: SECRET, input: 'hi' }],
    ['responses', 'as an input item type', { model: 'switchyard-sim', input: [{ type: SECRET }] }],
    [
      'messages',
      'as a content block type',
      { model: 'switchyard-sim', max_tokens: 16, messages: [{ role: 'user', content: [{ type: SECRET }] }] },
    ],
    [
      'chat',
      'as a top-level field name',
      { model: 'switchyard-sim', messages: [{ role: 'user', content: 'hi' }], [SECRET]: 1 },
    ],
    [
      'messages',
      'as a metadata field name',
      {
        model: 'switchyard-sim',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'hi' }],
        metadata: { [SECRET]: 'x' },
      },
    ],
  ] as const)(
    'a key in the model or a type field, or as a field name, comes back in the refusal message (%s, %s)',
    async (name, _case, body) => {
      await expectSound(json(endpointNamed(name), body), { refusalSecrets: [SECRET] });
    },
  );

  it.each(['anthropic-version', 'x-auth-token'])(
    'a key sent in a non-credential header is written to the access log (%s)',
    async header => {
      // A real API key the log audit has never seen, so only this test reports the leak.
      const account = (await gateway.store.listAccounts())[0]!;
      const { secret: key } = await gateway.store.createKey({ accountId: account.id, name: 'misplaced' });
      const body = { model: 'switchyard-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
      const request = json(endpointNamed('messages'), body);
      const headers = request.headers.filter(([name]) => name !== header);
      await expectSound(
        { ...request, headers: [...headers, [header, key]] },
        { secrets: [key], loggedSecrets: [key] },
      );
    },
  );

  it.each([
    [
      'a Content-Length of 19 for a 39-byte body',
      () => ({
        ...json(endpointNamed('responses'), { model: 'switchyard-sim', input: 'hi' }),
        declaredLength: 19,
      }),
    ],
    ['a raw non-ASCII byte in the path', () => ({ method: 'GET', path: '/v1/\u00c4', headers: [] })],
    ['a path over 16 KiB', () => ({ method: 'GET', path: `/v1/${'a'.repeat(17_000)}`, headers: [] })],
  ])(
    "HTTP-level parse errors get node's bare 400/431 without envelope or request id (%s)",
    async (_case, request: () => RawRequest) => {
      await expectSound(request());
    },
  );

  it.each([
    [
      'a raw non-ASCII byte in a /v1/messages path',
      (): RawRequest => ({
        method: 'GET',
        path: '/v1/messages/\u00c4',
        headers: endpointNamed('messages').authHeaders(gateway.demoKey),
      }),
    ],
    [
      'a Content-Length of 43 for an 86-byte Messages body',
      (): RawRequest => ({
        ...json(endpointNamed('messages'), {
          model: 'switchyard-sim',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'hi' }],
        }),
        declaredLength: 43,
      }),
    ],
  ])('an HTTP parse error of a Messages caller gets the OpenAI envelope (%s)', async (_case, request) => {
    await expectSound(request());
  });

  it('the client-error listener sends a body in its answer to a HEAD request (HEAD /v1/<raw 0xC4>)', async () => {
    // node's client refuses the answer ("Data after `Connection: close`"): a HEAD answer has no body.
    await expectSound({ method: 'HEAD', path: '/v1/\u00c4', headers: [] });
  });

  it('a key sent as the model ID is written to the usage log', async () => {
    const request = json(endpointNamed('responses'), { model: SECRET, input: 'hi' });
    await expectSound(request, { refusalSecrets: [SECRET], loggedSecrets: [SECRET] });
  });
});
