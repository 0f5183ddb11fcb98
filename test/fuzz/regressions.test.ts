import { createFuzzTally } from './create-fuzz-tally';
import { endpointNamed, type FuzzEndpoint } from './fuzz-endpoints';
import { exchange, startFuzzGateway, type ExchangeExpectation, type FuzzGateway } from './fuzz-gateway';
import type { RawRequest, RawResponse } from './send-raw-request';

/** The answer a regression case must get: the status and, for a refusal, its code and exact message. */
type ExpectedAnswer = {
  status: number;
  code?: string;
  /** `error.message`, exactly: keys the request carried show as `[redacted]`. */
  message?: string;
  /** Whose envelope the refusal is in (Messages: `type: "error"` at the top). */
  envelope?: 'openai' | 'messages';
};

const REDACTED = '[redacted]';

/** The parts of an answer `ExpectedAnswer` names, read from the raw response. */
function answerOf(response: RawResponse, expected: ExpectedAnswer): ExpectedAnswer {
  const text = response.body.toString('utf8');
  const body = (text === '' ? {} : JSON.parse(text)) as {
    type?: unknown;
    code?: string;
    error?: { message?: string };
  };
  return {
    status: response.status,
    ...(expected.code !== undefined && { code: body.code }),
    ...(expected.message !== undefined && { message: body.error?.message }),
    ...(expected.envelope !== undefined && { envelope: body.type === 'error' ? 'messages' : 'openai' }),
  };
}

/**
 * The fuzzers' shrunk counterexamples, one test per gateway bug they found, titled by the answer
 * the gateway gives now. Each failed until its fix landed and stays as a regression test; besides
 * the invariants every fuzz case keeps (`exchange`), each asserts its exact status, code and message.
 */
describe('fuzz regressions', () => {
  let gateway: FuzzGateway;
  const tally = createFuzzTally('regressions');
  beforeAll(async () => {
    gateway = await startFuzzGateway();
  });
  afterAll(() => gateway.close(1_000));

  const SECRET = `sbx-${'A'.repeat(40)}`; // key-shaped, built at run time (no key-like literal in source)
  const json = (endpoint: FuzzEndpoint, body: unknown, extra: Array<[string, string]> = []): RawRequest => ({
    method: 'POST',
    path: endpoint.path,
    headers: [...endpoint.authHeaders(gateway.demoKey), ['content-type', 'application/json'], ...extra],
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  });
  const expectAnswer = async (
    request: RawRequest,
    expected: ExpectedAnswer,
    expectation: ExchangeExpectation = {},
  ) => {
    const response = await exchange(gateway, tally, request, expectation);
    expect(answerOf(response, expected)).toEqual(expected);
    return response;
  };
  const invalidHTTP = { status: 400, code: 'INVALID_REQUEST', message: 'The request is not valid HTTP.' };
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it.each([
    [
      'responses',
      `{"model":"signalbox-sim","input":"hi","tools":[{"type":"function","name":"f","parameters":{"type":"object","properties":${deep(10_000)}}}]}`,
    ],
    [
      'messages',
      `{"model":"signalbox-sim","max_tokens":16,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","input_schema":{"type":"object","properties":${deep(10_000)}}}]}`,
    ],
    [
      'chat',
      `{"model":"signalbox-sim","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${deep(10_000)}}}]}`,
    ],
  ] as const)(
    'refuses free-form JSON nested 10 000 levels deep in a %s tool schema with 400 INVALID_REQUEST',
    async (name, body) => {
      await expectAnswer(json(endpointNamed(name), body), {
        status: 400,
        code: 'INVALID_REQUEST',
        message: 'The request body nests deeper than 64 levels.',
      });
    },
  );

  it.each([
    ['an empty body', Buffer.alloc(0)],
    ['bytes that are not gzip', Buffer.from('{"model":"signalbox-sim","input":"hi"}')],
  ])(
    'refuses a Content-Encoding: gzip body that does not decode (%s) with 400 INVALID_REQUEST naming the encoding',
    async (_case, body) => {
      const endpoint = endpointNamed('messages');
      await expectAnswer(
        { ...json(endpoint, '', [['content-encoding', 'gzip']]), body },
        {
          status: 400,
          code: 'INVALID_REQUEST',
          message: 'The request body does not decode as gzip, the Content-Encoding it was sent with.',
          envelope: 'messages',
        },
      );
    },
  );

  it('refuses a malformed percent-escape in an admin id with 400 INVALID_REQUEST (PATCH /admin/keys/%zz)', async () => {
    await expectAnswer(
      {
        method: 'PATCH',
        path: '/admin/keys/%zz',
        headers: [['authorization', `Bearer ${gateway.adminToken}`]],
      },
      { status: 400, code: 'INVALID_REQUEST', message: 'The request could not be read.' },
    );
  });

  it('redacts a key in an unknown path from the 404 ENDPOINT_NOT_FOUND message (POST /v1/responses/<key>)', async () => {
    const endpoint = endpointNamed('responses');
    await expectAnswer(
      { ...json(endpoint, { model: 'signalbox-sim', input: 'hi' }), path: `/v1/responses/${SECRET}` },
      {
        status: 404,
        code: 'ENDPOINT_NOT_FOUND',
        message:
          `No endpoint POST /v1/responses/${REDACTED}. Endpoints: POST /v1/responses, POST /v1/messages, POST /v1/chat/completions, ` +
          'POST /v1beta/models/{model}:generateContent, POST /v1/models/{model}:generateContent, POST /v1beta/models/{model}:streamGenerateContent, ' +
          'POST /v1/models/{model}:streamGenerateContent, POST /v1/messages/count_tokens, POST /v1beta/models/{model}:countTokens, POST /v1/models/{model}:countTokens, ' +
          'POST /v1/responses/compact, GET /v1/models, GET /v1beta/models, GET /v1/responses/{id}, DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items.',
      },
      { secrets: [SECRET] },
    );
  });

  it('redacts a key sent as a stored response id from the 404 RESOURCE_NOT_FOUND message (GET /v1/responses/<key>)', async () => {
    const endpoint = endpointNamed('responses');
    await expectAnswer(
      { method: 'GET', path: `/v1/responses/${SECRET}`, headers: endpoint.authHeaders(gateway.demoKey), body: Buffer.alloc(0) },
      { status: 404, code: 'RESOURCE_NOT_FOUND', message: `Response with id '${REDACTED}' not found.` },
      { secrets: [SECRET] },
    );
  });

  it.each([
    {
      name: 'responses',
      where: 'as the model',
      body: { model: SECRET, input: 'hi' },
      answer: {
        status: 404,
        code: 'MODEL_NOT_FOUND',
        message: `The model '${REDACTED}' does not exist. Use an exact model ID from GET /v1/models.`,
      },
    },
    {
      name: 'responses',
      where: 'as an input item type',
      body: { model: 'signalbox-sim', input: [{ type: SECRET }] },
      answer: {
        status: 400,
        code: 'UNSUPPORTED_PARAMETER',
        message: `Unsupported parameter 'input.0.type': input items of type '${REDACTED}' are not supported by this gateway (only messages, function_call, function_call_output and reasoning).`,
      },
    },
    {
      name: 'messages',
      where: 'as a content block type',
      body: {
        model: 'signalbox-sim',
        max_tokens: 16,
        messages: [{ role: 'user', content: [{ type: SECRET }] }],
      },
      answer: {
        status: 400,
        code: 'INVALID_REQUEST',
        message: `Invalid request: messages.0.content.0.type: Unknown content block type '${REDACTED}'.`,
      },
    },
    {
      name: 'messages',
      where: 'as a metadata field name',
      body: {
        model: 'signalbox-sim',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'hi' }],
        metadata: { [SECRET]: 'x' },
      },
      answer: {
        status: 400,
        code: 'INVALID_REQUEST',
        message: `Invalid request: metadata: Unrecognized key: "${REDACTED}".`,
      },
    },
  ] as const)(
    'refuses a $name body with a key $where, redacting the key from the refusal message ($answer.status $answer.code)',
    async ({ name, body, answer }) => {
      await expectAnswer(json(endpointNamed(name), body), answer, { refusalSecrets: [SECRET] });
    },
  );

  it('answers a chat body with a key as a top-level field name (200), counting the dropped field in the warnings header without naming it', async () => {
    const body = { model: 'signalbox-sim', messages: [{ role: 'user', content: 'hi' }], [SECRET]: 1 };
    const response = await expectAnswer(json(endpointNamed('chat'), body), { status: 200 }, { refusalSecrets: [SECRET], loggedSecrets: [SECRET] });
    expect(response.headers['x-signalbox-warnings']).toBe('1 other field (unknown-field)');
  });

  it("answers a Responses body whose built-in tool's type is a panel-token-shaped string (200), naming the dropped tool in the warnings header without its type", async () => {
    // 43 base64url characters of both cases: the shape of a panel session id or CSRF token.
    const token = `${'A'.repeat(40)}FaA`;
    const body = { model: 'sim-via-messages', input: 'hi', tools: [{ type: token, name: 'get_weather' }] };
    const response = await expectAnswer(json(endpointNamed('responses'), body), { status: 200 }, { refusalSecrets: [token], loggedSecrets: [token] });
    expect(response.headers['x-signalbox-warnings']).toBe('tools: unknown get_weather (unsupported-field)');
  });

  it.each([
    {
      header: 'anthropic-version',
      answer: {
        status: 400,
        code: 'VERSION_HEADER_INVALID',
        message: 'anthropic-version: the value sent is not a valid version; send "2023-06-01"',
      },
    },
    // An unknown header is ignored: the request is served.
    { header: 'x-auth-token', answer: { status: 200 } },
  ])(
    'keeps a key sent in the non-credential header $header out of the logs (answers $answer.status)',
    async ({ header, answer }) => {
      // A real API key the log audit has never seen, so only this test reports the leak.
      const account = (await gateway.store.listAccounts())[0]!;
      const { secret: key } = await gateway.store.createKey({ accountId: account.id, name: 'misplaced' });
      const body = { model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
      const request = json(endpointNamed('messages'), body);
      const headers = request.headers.filter(([name]) => name !== header);
      await expectAnswer({ ...request, headers: [...headers, [header, key]] }, answer, {
        secrets: [key],
        loggedSecrets: [key],
      });
    },
  );

  it.each([
    {
      request: 'a Content-Length of 19 for a 39-byte body',
      build: (): RawRequest => ({
        ...json(endpointNamed('responses'), { model: 'signalbox-sim', input: 'hi' }),
        declaredLength: 19,
      }),
      answer: invalidHTTP,
    },
    {
      request: 'a raw non-ASCII byte in the path',
      build: (): RawRequest => ({ method: 'GET', path: '/v1/\u00c4', headers: [] }),
      answer: invalidHTTP,
    },
    {
      request: 'a path over 16 KiB',
      build: (): RawRequest => ({ method: 'GET', path: `/v1/${'a'.repeat(17_000)}`, headers: [] }),
      answer: {
        status: 431,
        code: 'HEADERS_TOO_LARGE',
        message: 'The request line or headers are too large.',
      },
    },
  ])(
    "answers a request Node's HTTP parser rejects ($request) with $answer.status $answer.code in a JSON envelope with a request id",
    async ({ build, answer }) => {
      await expectAnswer(build(), { ...answer, envelope: 'openai' });
    },
  );

  it.each([
    {
      request: 'a raw non-ASCII byte in a /v1/messages path',
      build: (): RawRequest => ({
        method: 'GET',
        path: '/v1/messages/\u00c4',
        headers: endpointNamed('messages').authHeaders(gateway.demoKey),
      }),
    },
    {
      request: 'a Content-Length of 43 for an 86-byte Messages body',
      build: (): RawRequest => ({
        ...json(endpointNamed('messages'), {
          model: 'signalbox-sim',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'hi' }],
        }),
        declaredLength: 43,
      }),
    },
  ])(
    "answers a Messages caller's request Node's HTTP parser rejects ($request) in the Messages envelope",
    async ({ build }) => {
      await expectAnswer(build(), { ...invalidHTTP, envelope: 'messages' });
    },
  );

  it("answers a HEAD request Node's HTTP parser rejects with the headers of a 400 and no body (HEAD /v1/<raw 0xC4>)", async () => {
    // Node's client refuses an answer to HEAD that has a body ("Data after `Connection: close`").
    const response = await expectAnswer({ method: 'HEAD', path: '/v1/\u00c4', headers: [] }, { status: 400 });
    expect(response.body.length).toBe(0);
    expect(response.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9]{24}$/);
  });

  it('redacts a key sent as the model ID from the 404 MODEL_NOT_FOUND message and from the usage log', async () => {
    const request = json(endpointNamed('responses'), { model: SECRET, input: 'hi' });
    await expectAnswer(
      request,
      {
        status: 404,
        code: 'MODEL_NOT_FOUND',
        message: `The model '${REDACTED}' does not exist. Use an exact model ID from GET /v1/models.`,
      },
      { refusalSecrets: [SECRET], loggedSecrets: [SECRET] },
    );
  });

  it('answers a Messages body for a translated route with a key and text in anthropic-beta (200), showing both [redacted] in the warnings header', async () => {
    const text = 'summarise my medical records';
    const body = { model: 'sim-via-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
    const response = await exchange(gateway, tally, json(endpointNamed('messages'), body, [['anthropic-beta', `${SECRET}, ${text}, prompt-caching-2024-07-31`]]), {
      secrets: [SECRET, text],
      loggedSecrets: [SECRET, text],
    });
    expect([response.status, response.headers['x-signalbox-warnings']]).toEqual([
      200,
      'anthropic-beta: [redacted] (unsupported-field), anthropic-beta: prompt-caching-2024-07-31 (unsupported-field)',
    ]);
  });

  it("describes a Messages block type that is text without repeating it, in the 400 and its log line (type: 'aaaa aaaa aaaa prompt')", async () => {
    const text = 'aaaa aaaa aaaa prompt';
    const body = { model: 'sim-via-messages', max_tokens: 16, messages: [{ role: 'user', content: [{ type: text }] }] };
    await expectAnswer(
      json(endpointNamed('messages'), body),
      { status: 400, code: 'INVALID_REQUEST', message: 'Invalid request: messages.0.content.0.type: Unknown content block type (not a type name).' },
      { refusalSecrets: [text], loggedSecrets: [text] },
    );
  });

  it("describes a Gemini media type that is text without repeating it, in the 400 for a Messages upstream and its log line (mimeType: 'aaaa aaaa aaaa prompt')", async () => {
    const text = 'aaaa aaaa aaaa prompt';
    const endpoint = endpointNamed('gemini');
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType: text, data: 'AAAA' } }] }] };
    const response = await exchange(gateway, tally, json(endpoint, body), { refusalSecrets: [text], loggedSecrets: [text] });
    expect([response.status, JSON.parse(response.body.toString('utf8')).error.message]).toEqual([
      400,
      "Unsupported parameter 'messages.0.content.1.source': file media type (not a type/subtype name) is not supported by Anthropic (PDF and plain text are).",
    ]);
  });
});
