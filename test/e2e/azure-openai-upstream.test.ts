import { createAzureOpenAIKind } from '@signalbox/kind-azure-openai';
import { startWithConfig } from '../errors/refusal-helpers';
import { startAzureOpenAIEmulator, type AzureOpenAIEmulator } from '../helpers/start-azure-openai-emulator';
import { startEntraTokenEndpoint, type EntraTokenEndpoint } from '../helpers/start-entra-token-endpoint';
import type { TestGateway } from '../helpers/start-test-gateway';
import { protocolClients, type ClientProtocol } from '../helpers/ask-every-protocol';

const ENVIRONMENT = {
  AZURE_OPENAI_API_KEY: `azure-${'k'.repeat(8)}${Math.random().toString(36).slice(2)}Key32chars`,
  AZURE_OPENAI_STALE_KEY: `azure-stale-${Math.random().toString(36).slice(2)}Stale`,
};
const ALL_INTERFACES = ['responses', 'messages', 'chat'];

/**
 * The example server in front of an emulated Azure OpenAI resource (v1 API) and an emulated
 * Microsoft Entra ID: upstreams of kind `azure-openai` speaking Responses and Chat with an
 * `api-key`, one signing in with Entra client credentials whose tokens live 2 seconds, and two
 * whose credentials the cloud refuses.
 */
describe('Azure OpenAI upstreams (kind azure-openai)', () => {
  let entra: EntraTokenEndpoint;
  let azure: AzureOpenAIEmulator;
  let server: TestGateway;

  beforeAll(async () => {
    entra = await startEntraTokenEndpoint(2);
    azure = await startAzureOpenAIEmulator({ apiKeys: [ENVIRONMENT.AZURE_OPENAI_API_KEY], verifyToken: token => entra.verify(token) });
    const entraAuth = (secretEnv: string) => ({
      type: 'entra',
      source: 'client-secret',
      tenantId: entra.tenantId,
      clientId: entra.clientId,
      clientSecretEnv: secretEnv,
      authorityHost: entra.authorityHost,
      disableInstanceDiscovery: true,
    });
    const upstream = (protocol: string, settings: Record<string, unknown>) => ({ kind: 'azure-openai', protocol, baseURL: azure.baseURL, ...settings });
    const route = (model: string, upstreamName: string) => ({ model, interfaces: ALL_INTERFACES, targets: [{ upstream: upstreamName, model: 'gpt-4o-deployment' }] });
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: {
          ...config.upstreams,
          'azure-responses': upstream('openai-responses', { apiKeyEnv: 'AZURE_OPENAI_API_KEY' }),
          'azure-chat': upstream('openai-chat', { apiKeyEnv: 'AZURE_OPENAI_API_KEY' }),
          'azure-entra': upstream('openai-responses', { auth: entraAuth('AZURE_ENTRA_SECRET') }),
          'azure-stale-key': upstream('openai-chat', { apiKeyEnv: 'AZURE_OPENAI_STALE_KEY' }),
          'azure-wrong-secret': upstream('openai-chat', { auth: entraAuth('AZURE_ENTRA_WRONG_SECRET') }),
        },
        routes: [
          ...config.routes,
          route('azure-responses', 'azure-responses'),
          route('azure-chat', 'azure-chat'),
          route('azure-entra', 'azure-entra'),
          route('azure-stale-key', 'azure-stale-key'),
          route('azure-wrong-secret', 'azure-wrong-secret'),
        ],
      }),
      {
        environment: { ...ENVIRONMENT, AZURE_ENTRA_SECRET: entra.clientSecret, AZURE_ENTRA_WRONG_SECRET: `${entra.clientSecret}-wrong` },
        kinds: [createAzureOpenAIKind({ identityOptions: { tlsOptions: { ca: entra.certificate } } })],
      },
    );
  });
  afterAll(async () => {
    // Every token Entra handed out is a secret the gateway's logs must not hold.
    server?.audit.remember(entra.issued);
    await server?.close(1_000);
    await azure?.close();
    await entra?.close();
  });

  const clients = () => protocolClients(server);
  const openai = () => clients().openai();
  const ask = (client: ClientProtocol, model: string, stream: boolean) => clients().ask(client, model, stream, 'Name a harbour');

  it.each(['azure-responses', 'azure-chat'])('serves every client protocol, whole and streamed, through %s with its api-key and the deployment name', async model => {
    const before = azure.served.length;
    for (const client of ['responses', 'chat', 'messages'] as const) {
      for (const stream of [false, true]) expect((await ask(client, model, stream)).length).toBeGreaterThan(0);
    }
    const calls = azure.served.slice(before);
    expect(calls).toHaveLength(6);
    const path = model === 'azure-responses' ? '/openai/v1/responses' : '/openai/v1/chat/completions';
    for (const call of calls) expect(call).toEqual({ path, deployment: 'gpt-4o-deployment' });
    expect(azure.credentials.slice(-6).every(credential => credential.scheme === 'api-key' && credential.accepted)).toBe(true);
    expect(server.recentUsage().at(-1)).toMatchObject({ upstream: model, upstreamKind: 'azure-openai', status: 200 });
  });

  it('answers 502 UPSTREAM_AUTH_FAILED when Azure refuses the key, and takes the credential out', async () => {
    const failure = await openai().chat.completions.create({ model: 'azure-stale-key', messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, error: { code: 'upstream_auth_failed' } });
    expect(azure.credentials.at(-1)).toMatchObject({ scheme: 'api-key', accepted: false });
    const health = server.gateway.engine.upstreamHealth().find(report => report.name === 'azure-stale-key')!;
    expect(health.credentials[0]).toMatchObject({ name: 'default', state: 'disabled', reason: 'upstream-401' });
  });

  it('answers 502 UPSTREAM_AUTH_FAILED when Entra ID refuses the client secret, before calling Azure', async () => {
    const calls = azure.credentials.length;
    const failure = await openai().chat.completions.create({ model: 'azure-wrong-secret', messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, error: { code: 'upstream_auth_failed' } });
    expect(entra.refused).toBeGreaterThan(0);
    expect(azure.credentials).toHaveLength(calls);
  });

  it('signs in with Entra ID tokens and keeps serving while they rotate, with no failed request', async () => {
    const tokensBefore = entra.issued.length;
    const answers: string[] = [];
    // Requests go on until Entra ID has handed out two more tokens than it had (each lives 2 seconds).
    const deadline = Date.now() + 15_000;
    while (entra.issued.length < tokensBefore + 3 && Date.now() < deadline) {
      answers.push(await ask(answers.length % 2 === 0 ? 'responses' : 'chat', 'azure-entra', answers.length % 3 === 0));
    }
    expect(entra.issued.length).toBeGreaterThanOrEqual(tokensBefore + 3);
    expect(answers.every(answer => answer.length > 0)).toBe(true);
    const bearer = azure.credentials.filter(credential => credential.scheme === 'bearer');
    expect(bearer.every(credential => credential.accepted)).toBe(true);
    expect(new Set(bearer.map(credential => credential.value)).size).toBeGreaterThanOrEqual(2);
    // Tokens are fetched ahead of their expiry, never per request.
    expect(entra.issued.length - tokensBefore).toBeLessThan(answers.length);
    for (const token of entra.issued) expect(server.gateway.engine.secrets.scrub(`sent ${token}`)).toBe('sent [redacted]');
  });
});
