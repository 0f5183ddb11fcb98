import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAzureOpenAIKind } from '@signalbox/kind-azure-openai';
import { startWithConfig } from '../../errors/refusal-helpers';
import { startAzureOpenAIEmulator, type AzureOpenAIEmulator } from '../../helpers/start-azure-openai-emulator';
import { startEntraTokenEndpoint, type EntraTokenEndpoint } from '../../helpers/start-entra-token-endpoint';
import type { TestGateway } from '../../helpers/start-test-gateway';
import { createAgentSandbox, isolatedEnvironment, logGatewayRequests, runCli, startEgressTrap, type AgentSandbox, type EgressTrap } from './agent-sandbox';
import { CODEX, codexConfig, completedItems, expectCompletedTurn } from './codex-cli';

/** A CLI run that has not ended after this long is killed; a test runs at most one. */
const RUN_TIMEOUT_MS = 20_000;
jest.setTimeout(RUN_TIMEOUT_MS + 10_000);
const FILE_CONTENT = 'fjord-notes-7f3a: snow chains are in the boot';
const DEPLOYMENT = 'gpt-5-codex-deployment';
const API_KEY = `azure-${Math.random().toString(36).slice(2)}-resource-key`;

/**
 * The real Codex CLI (`codex exec --json`, unmodified, sandboxed and offline as in codex-cli.test.ts)
 * through routes whose upstream is an Azure OpenAI resource (kind `azure-openai`, the Responses v1
 * API of an emulated resource): one with the resource's `api-key`, one signing in with Microsoft
 * Entra ID (client credentials against an emulated token endpoint). Each completes a shell tool
 * round trip, its two Responses calls reaching the resource under the deployment's name.
 */
describe('Codex CLI through Azure OpenAI upstreams', () => {
  let entra: EntraTokenEndpoint;
  let azure: AzureOpenAIEmulator;
  let server: TestGateway;
  let trap: EgressTrap;
  let sandbox: AgentSandbox;

  beforeAll(async () => {
    entra = await startEntraTokenEndpoint(60);
    azure = await startAzureOpenAIEmulator({ apiKeys: [API_KEY], verifyToken: token => entra.verify(token) });
    const auth = {
      type: 'entra',
      source: 'client-secret',
      tenantId: entra.tenantId,
      clientId: entra.clientId,
      clientSecretEnv: 'AZURE_ENTRA_SECRET',
      authorityHost: entra.authorityHost,
      disableInstanceDiscovery: true,
    };
    const upstream = (settings: Record<string, unknown>) => ({ kind: 'azure-openai', protocol: 'openai-responses', baseURL: azure.baseURL, ...settings });
    const route = (model: string) => ({ model, interfaces: ['responses'], targets: [{ upstream: model, model: DEPLOYMENT }] });
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: { ...config.upstreams, 'azure-key': upstream({ apiKeyEnv: 'AZURE_OPENAI_API_KEY' }), 'azure-entra': upstream({ auth }) },
        routes: [...config.routes, route('azure-key'), route('azure-entra')],
      }),
      {
        environment: { AZURE_OPENAI_API_KEY: API_KEY, AZURE_ENTRA_SECRET: entra.clientSecret },
        kinds: [createAzureOpenAIKind({ identityOptions: { tlsOptions: { ca: entra.certificate } } })],
      },
    );
    trap = await startEgressTrap();
    sandbox = createAgentSandbox('signalbox-codex-azure-');
    writeFileSync(join(sandbox.cwd, 'notes.txt'), `${FILE_CONTENT}\n`);
  });
  afterAll(async () => {
    server?.audit.remember(entra.issued);
    await trap?.close();
    await server?.close(1_000);
    await azure?.close();
    await entra?.close();
    sandbox?.remove();
  });
  afterEach(() => expect(trap.attempts.splice(0)).toEqual([]));

  it.each([
    { model: 'azure-key', scheme: 'api-key' },
    { model: 'azure-entra', scheme: 'bearer' },
  ] as const)('completes a shell tool round trip on $model, each call reaching the resource with its $scheme', async ({ model, scheme }) => {
    writeFileSync(join(sandbox.config, 'config.toml'), codexConfig({ model, baseURL: server.url }));
    const log = logGatewayRequests(server.server);
    const before = { served: azure.served.length, credentials: azure.credentials.length };
    const run = await runCli(process.execPath, [CODEX, 'exec', '--json', '--skip-git-repo-check', 'Use exec_command to run `cat notes.txt`'], {
      cwd: sandbox.cwd,
      timeoutMs: RUN_TIMEOUT_MS,
      env: { ...isolatedEnvironment(sandbox, trap), CODEX_HOME: sandbox.config, SIGNALBOX_API_KEY: server.demoKey },
    });
    log.stop();
    expectCompletedTurn(run);
    expect(completedItems(run, 'command_execution')).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, aggregated_output: `${FILE_CONTENT}\n` })]);
    const messages = completedItems(run, 'agent_message').map(item => String(item.text));
    expect(messages).toEqual(['I will call exec_command.', expect.stringContaining(FILE_CONTENT.slice(0, 40))]);
    expect(log.requests.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual(['POST /v1/responses 200', 'POST /v1/responses 200']);
    expect(azure.served.slice(before.served)).toEqual([
      { path: '/openai/v1/responses', deployment: DEPLOYMENT },
      { path: '/openai/v1/responses', deployment: DEPLOYMENT },
    ]);
    expect(azure.credentials.slice(before.credentials).map(credential => [credential.scheme, credential.accepted])).toEqual([
      [scheme, true],
      [scheme, true],
    ]);
  });
});
