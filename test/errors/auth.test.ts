import { generateApiKey } from '@signalbox/accounts';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import {
  createInterfaceClient,
  createKey,
  expectRefusal,
  INTERFACES,
  promptBody,
  refusalOf,
  type InterfaceName,
} from './refusal-helpers';

const MODEL = 'signalbox-sim';
const PROMPT = 'Say hello to the gateway';
/** The header each interface reads the key from, as the client would remove it. */
const KEY_HEADER: Record<InterfaceName, string> = {
  responses: 'authorization',
  messages: 'x-api-key',
  chat: 'authorization',
};
const MISSING_KEY_HINT: Record<InterfaceName, RegExp> = {
  responses: /Bearer/,
  messages: /x-api-key/,
  chat: /Bearer/,
};

describe('401 for a missing or unusable credential, 400 for a missing or unknown Messages version header', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  describe.each(INTERFACES)('on the %s interface', name => {
    it('refuses a request without a key: 401 API_KEY_MISSING naming the header to send', async () => {
      const client = createInterfaceClient(server, name, {
        key: server.demoKey!,
        edit: { headers: { [KEY_HEADER[name]]: null } },
      });
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        client,
        failure,
        { status: 401, code: 'API_KEY_MISSING', message: MISSING_KEY_HINT[name] },
        server.demoKey,
      );
    });

    it('refuses an unknown key: 401 API_KEY_INVALID, the key not echoed', async () => {
      const unknownKey = generateApiKey();
      const client = createInterfaceClient(server, name, { key: unknownKey });
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(server, client, failure, { status: 401, code: 'API_KEY_INVALID' }, unknownKey);
    });

    it('refuses a disabled key: 401 API_KEY_DISABLED', async () => {
      const key = await createKey(server, { key: { status: 'disabled' } });
      const client = createInterfaceClient(server, name, { key });
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        client,
        failure,
        { status: 401, code: 'API_KEY_DISABLED', message: /disabled/i },
        key,
      );
    });

    it('refuses a console (admin) token sent as the API key: 401 API_KEY_INVALID saying so', async () => {
      const client = createInterfaceClient(server, name, { key: server.adminToken });
      const failure = await refusalOf(client.create(promptBody(name, MODEL, PROMPT)));
      await expectRefusal(
        server,
        client,
        failure,
        { status: 401, code: 'API_KEY_INVALID', message: /console|admin/i },
        server.adminToken,
      );
    });
  });

  it('refuses Authorization: Bearer on Messages without x-api-key: 401 API_KEY_MISSING naming x-api-key and the SDK 1.x settings', async () => {
    const client = createInterfaceClient(server, 'messages', { key: server.demoKey!, messagesBearer: true });
    const failure = await refusalOf(client.create(promptBody('messages', MODEL, PROMPT)));
    await expectRefusal(
      server,
      client,
      failure,
      { status: 401, code: 'API_KEY_MISSING', message: /x-api-key.*@anthropic-ai\/sdk 1\.x.*authorization: null/ },
      server.demoKey,
    );
  });

  it('refuses a Messages request without a version header: 400 VERSION_HEADER_MISSING', async () => {
    const client = createInterfaceClient(server, 'messages', {
      key: server.demoKey!,
      edit: { headers: { 'anthropic-version': null } },
    });
    const failure = await refusalOf(client.create(promptBody('messages', MODEL, PROMPT)));
    await expectRefusal(
      server,
      client,
      failure,
      { status: 400, code: 'VERSION_HEADER_MISSING', message: /anthropic-version/ },
      server.demoKey,
    );
  });

  it('refuses a version the gateway does not accept (2026-10-21): 400 VERSION_HEADER_INVALID naming 2023-06-01', async () => {
    const client = createInterfaceClient(server, 'messages', {
      key: server.demoKey!,
      edit: { headers: { 'anthropic-version': '2026-10-21' } },
    });
    const failure = await refusalOf(client.create(promptBody('messages', MODEL, PROMPT)));
    await expectRefusal(
      server,
      client,
      failure,
      { status: 400, code: 'VERSION_HEADER_INVALID', message: /2023-06-01/ },
      server.demoKey,
    );
  });

  it('accepts provider-version: 2023-06-01 in place of anthropic-version', async () => {
    const client = createInterfaceClient(server, 'messages', {
      key: server.demoKey!,
      edit: { headers: { 'anthropic-version': null, 'provider-version': '2023-06-01' } },
    });
    const message = (await client.create(promptBody('messages', MODEL, PROMPT))) as {
      type: string;
      stop_reason: string;
    };
    expect(message).toMatchObject({ type: 'message', stop_reason: 'end_turn' });
    expect(client.last().status).toBe(200);
  });
});
