import type { TestGateway } from '../helpers/start-test-gateway';
import {
  createInterfaceClient,
  expectAnswered,
  expectRefusal,
  INTERFACES,
  promptBody,
  refusalOf,
  startWithConfig,
  type InterfaceName,
} from './refusal-helpers';

const MODEL = 'signalbox-sim';
const SMALL_CONTEXT_MODEL = 'sim-small-context';
const BODY_LIMIT_BYTES = 16 * 1024;
const CONTEXT_TOKENS = 1_000;
const PROMPT = 'Sort these freight cars';

/** A field with the wrong JSON type, per interface: the body change and the field path the error must name. */
const WRONG_TYPES: Record<InterfaceName, Array<[string, Record<string, unknown>, string]>> = {
  responses: [
    ['input: 5', { input: 5 }, 'input'],
    ['max_output_tokens: "10"', { max_output_tokens: '10' }, 'max_output_tokens'],
  ],
  messages: [
    ['max_tokens: "10"', { max_tokens: '10' }, 'max_tokens'],
    ['messages[0].content: 5', { messages: [{ role: 'user', content: 5 }] }, 'messages.0.content'],
  ],
  chat: [
    ['max_tokens: "10"', { max_tokens: '10' }, 'max_tokens'],
    ['messages[0].content: 5', { messages: [{ role: 'user', content: 5 }] }, 'messages.0.content'],
  ],
};

/** A user turn whose one content block has a type no interface knows. */
const UNKNOWN_BLOCK: Record<InterfaceName, [Record<string, unknown>, RegExp]> = {
  responses: [
    { input: [{ role: 'user', content: [{ type: 'input_hologram', text: PROMPT }] }] },
    /input\.0\.content\.0/,
  ],
  messages: [
    { messages: [{ role: 'user', content: [{ type: 'hologram', text: PROMPT }] }] },
    /messages\.0\.content\.0/,
  ],
  chat: [
    { messages: [{ role: 'user', content: [{ type: 'hologram', text: PROMPT }] }] },
    /messages\.0\.content\.0/,
  ],
};

/** A field of another interface's endpoint, per interface, and the endpoint that takes it. */
const SIBLING_FIELD: Record<InterfaceName, [string, string]> = {
  responses: ['max_tokens', 'POST /v1/messages and POST /v1/chat/completions'],
  messages: ['max_output_tokens', 'POST /v1/responses'],
  chat: ['max_output_tokens', 'POST /v1/responses'],
};

/** The param the OpenAI envelope must carry (the Messages envelope has none: the message names the path). */
const param = (name: InterfaceName, path: string) => (name === 'messages' ? undefined : path);

describe('404 for unknown paths and models, 413 for oversized requests, 400 for malformed bodies', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startWithConfig(config => ({
      ...config,
      bodyLimitBytes: BODY_LIMIT_BYTES,
      routes: [
        ...config.routes,
        {
          model: SMALL_CONTEXT_MODEL,
          interfaces: ['responses', 'messages', 'chat'],
          targets: [{ upstream: 'simulator-messages', model: 'sim-1' }],
          contextTokens: CONTEXT_TOKENS,
        },
      ],
    }));
  });
  afterAll(() => server.close(1_000));

  const client = (
    name: InterfaceName,
    options: Parameters<typeof createInterfaceClient>[2] = { key: server.demoKey! },
  ) => createInterfaceClient(server, name, options);

  describe.each(INTERFACES)('on the %s interface', name => {
    it('answers a path the gateway does not serve with 404 ENDPOINT_NOT_FOUND listing the endpoints', async () => {
      const sdk = client(name);
      const failure = await refusalOf(sdk.unknownPath());
      await expectRefusal(
        server,
        sdk,
        failure,
        { status: 404, code: 'ENDPOINT_NOT_FOUND', message: /POST \/v1\/messages/ },
        server.demoKey,
      );
    });

    it('answers a duplicated /v1 with 404 ENDPOINT_NOT_FOUND and the base-URL hint', async () => {
      const baseURL = name === 'messages' ? `${server.url}/v1` : `${server.url}/v1/v1`;
      const sdk = client(name, { key: server.demoKey!, baseURL });
      const failure = await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        sdk,
        failure,
        { status: 404, code: 'ENDPOINT_NOT_FOUND', message: /repeats \/v1.*base URL/ },
        server.demoKey,
      );
    });

    it('answers an unknown model with 404 MODEL_NOT_FOUND', async () => {
      const sdk = client(name);
      const failure = await refusalOf(sdk.create(promptBody(name, 'no-such-model', PROMPT)));
      await expectRefusal(
        server,
        sdk,
        failure,
        {
          status: 404,
          code: 'MODEL_NOT_FOUND',
          message: /no-such-model/,
          param: param(name, 'model'),
          openAICode: name === 'messages' ? undefined : 'model_not_found',
        },
        server.demoKey,
      );
    });

    it('refuses a body over bodyLimitBytes by Content-Length: 413 REQUEST_TOO_LARGE', async () => {
      const sdk = client(name);
      const failure = await refusalOf(sdk.create(promptBody(name, MODEL, 'x'.repeat(BODY_LIMIT_BYTES * 2))));
      await expectRefusal(server, sdk, failure, { status: 413, code: 'REQUEST_TOO_LARGE' }, server.demoKey);
    });

    it('refuses a body over bodyLimitBytes sent chunked (no Content-Length): 413 REQUEST_TOO_LARGE', async () => {
      const sdk = client(name, { key: server.demoKey!, edit: { chunked: true } });
      const failure = await refusalOf(sdk.create(promptBody(name, MODEL, 'x'.repeat(BODY_LIMIT_BYTES * 4))));
      await expectRefusal(server, sdk, failure, { status: 413, code: 'REQUEST_TOO_LARGE' }, server.demoKey);
      const small = client(name, { key: server.demoKey!, edit: { chunked: true } });
      expectAnswered(small, await small.create(promptBody(name, MODEL, PROMPT)), MODEL);
    });

    it('refuses a prompt estimated over the route’s contextTokens: 413 PROMPT_TOO_LARGE', async () => {
      const sdk = client(name);
      const upstreamCalls = server.simulator.stats().requests;
      const failure = await refusalOf(
        sdk.create(promptBody(name, SMALL_CONTEXT_MODEL, 'word '.repeat(CONTEXT_TOKENS * 2))),
      );
      await expectRefusal(
        server,
        sdk,
        failure,
        { status: 413, code: 'PROMPT_TOO_LARGE', message: new RegExp(`${CONTEXT_TOKENS}`) },
        server.demoKey,
      );
      expect(server.simulator.stats().requests).toBe(upstreamCalls);
    });

    it('refuses malformed JSON: 400 INVALID_JSON', async () => {
      const sdk = client(name, { key: server.demoKey!, edit: { body: text => text.slice(0, 12) } });
      const failure = await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        sdk,
        failure,
        { status: 400, code: 'INVALID_JSON', message: /JSON/ },
        server.demoKey,
      );
    });

    it.each(WRONG_TYPES[name])(
      'refuses a wrong type (%s): 400 INVALID_REQUEST naming the field path',
      async (_case, change, path) => {
        const sdk = client(name);
        const failure = await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT, change)));
        await expectRefusal(
          server,
          sdk,
          failure,
          {
            status: 400,
            code: 'INVALID_REQUEST',
            message: new RegExp(path.replaceAll('.', '\\.')),
            param: param(name, path),
          },
          server.demoKey,
        );
      },
    );

    it('refuses a content block of an unknown type: 400 INVALID_REQUEST naming the block', async () => {
      const [change, path] = UNKNOWN_BLOCK[name];
      const sdk = client(name);
      const failure = await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT, change)));
      await expectRefusal(
        server,
        sdk,
        failure,
        { status: 400, code: 'INVALID_REQUEST', message: path },
        server.demoKey,
      );
    });

    it('answers a body with an unknown top-level field (forwarded as sent on a same-protocol route, dropped with a warning on a translated one)', async () => {
      const sdk = client(name);
      const answer = await sdk.create(promptBody(name, MODEL, PROMPT, { frobnicate: true }));
      expectAnswered(sdk, answer, MODEL);
      // signalbox-sim's upstream speaks Messages: the Messages interface is its same-protocol route.
      expect(sdk.last().headers.get('x-signalbox-warnings')).toBe(name === 'messages' ? null : 'frobnicate (unknown-field)');
    });

    it('refuses a field of a sibling endpoint: 400 INVALID_REQUEST naming it and the endpoint that takes it', async () => {
      const [field, endpoint] = SIBLING_FIELD[name];
      const sdk = client(name);
      const failure = await refusalOf(sdk.create(promptBody(name, MODEL, PROMPT, { [field]: 64 })));
      await expectRefusal(
        server,
        sdk,
        failure,
        { status: 400, code: 'INVALID_REQUEST', message: new RegExp(`^\`${field}\` is a field of ${endpoint}`), param: param(name, field) },
        server.demoKey,
      );
    });
  });

  it('refuses Messages on a route without that interface: 400 INTERFACE_NOT_SUPPORTED naming the right endpoint', async () => {
    const sdk = client('messages');
    const failure = await refusalOf(sdk.create(promptBody('messages', 'sim-responses-only', PROMPT)));
    await expectRefusal(
      server,
      sdk,
      failure,
      { status: 400, code: 'INTERFACE_NOT_SUPPORTED', message: /\/v1\/responses/ },
      server.demoKey,
    );
  });

  it('refuses a Messages-shaped body on /v1/responses, pointing to /v1/messages or `input`', async () => {
    const sdk = client('responses');
    const failure = await refusalOf(
      sdk.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: PROMPT }] }),
    );
    const refusal = await expectRefusal(
      server,
      sdk,
      failure,
      { status: 400, code: 'INVALID_REQUEST', message: /\/v1\/messages/ },
      server.demoKey,
    );
    expect((refusal.body.error as { message: string }).message).toMatch(/`input`/);
  });

  it('refuses a system turn inside messages on /v1/messages that holds more than text', async () => {
    const sdk = client('messages');
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } };
    const messages = [
      { role: 'system', content: [image] },
      { role: 'user', content: PROMPT },
    ];
    const failure = await refusalOf(sdk.create(promptBody('messages', MODEL, PROMPT, { messages })));
    await expectRefusal(
      server,
      sdk,
      failure,
      { status: 400, code: 'INVALID_REQUEST', message: /messages\.0\.content\.0\.type/ },
      server.demoKey,
    );
  });

  it('refuses a Messages request without max_tokens: 400 INVALID_REQUEST naming max_tokens', async () => {
    const sdk = client('messages');
    const failure = await refusalOf(
      sdk.create({ model: MODEL, messages: [{ role: 'user', content: PROMPT }] }),
    );
    await expectRefusal(
      server,
      sdk,
      failure,
      { status: 400, code: 'INVALID_REQUEST', message: /max_tokens/ },
      server.demoKey,
    );
  });
});
