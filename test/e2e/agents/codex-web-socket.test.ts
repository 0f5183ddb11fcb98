import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from '../../../examples/server/src';
import { startTestGateway, type TestGateway } from '../../helpers/start-test-gateway';
import { createAgentSandbox, isolatedEnvironment, logGatewayRequests, runCli, startEgressTrap, type AgentSandbox, type EgressTrap } from './agent-sandbox';
import { CODEX, CODEX_ROUTES, codexConfig, completedItems, expectCompletedTurn } from './codex-cli';

/**
 * The real Codex CLI with `supports_websockets = true` on every default route that serves the
 * Responses interface: its turns travel over the gateway's WebSocket mode (each response recorded
 * as `openai-responses-ws`, no `POST /v1/responses` at all), not the HTTP fallback. Offline, as in
 * codex-cli.test.ts.
 */
const RUN_TIMEOUT_MS = 30_000;
jest.setTimeout(2 * RUN_TIMEOUT_MS + 5_000);
const FILE_CONTENT = 'harbour-notes-91c2: the ferry leaves at nine';

describe('Codex CLI over the WebSocket mode of the example server', () => {
  let server: TestGateway;
  let trap: EgressTrap;
  let sandbox: AgentSandbox;

  beforeAll(async () => {
    sandbox = createAgentSandbox('signalbox-codex-ws-');
    const configPath = join(sandbox.root, 'gateway.json');
    writeFileSync(configPath, JSON.stringify(createDefaultConfig(EMBEDDED_SIMULATOR)));
    server = await startTestGateway({ configPath });
    trap = await startEgressTrap();
    writeFileSync(join(sandbox.cwd, 'notes.txt'), `${FILE_CONTENT}\n`);
  });
  afterAll(async () => {
    await trap.close();
    await server.close(1_000);
    sandbox.remove();
  });
  afterEach(() => expect(trap.attempts.splice(0)).toEqual([]));

  async function codex(prompt: string, model: string) {
    writeFileSync(join(sandbox.config, 'config.toml'), codexConfig({ model, baseURL: server.url, providerLines: ['supports_websockets = true'] }));
    const http = logGatewayRequests(server.server);
    const upgrades: string[] = [];
    const onUpgrade = (request: { url?: string }) => upgrades.push(request.url ?? '');
    server.server.prependListener('upgrade', onUpgrade);
    const before = server.recentUsage().length;
    const run = await runCli(process.execPath, [CODEX, 'exec', '--json', '--skip-git-repo-check', prompt], {
      cwd: sandbox.cwd,
      timeoutMs: RUN_TIMEOUT_MS,
      env: { ...isolatedEnvironment(sandbox, trap), CODEX_HOME: sandbox.config, SIGNALBOX_API_KEY: server.demoKey },
    });
    http.stop();
    server.server.off('upgrade', onUpgrade);
    return { run, http: http.requests, upgrades, rows: server.recentUsage().slice(before) };
  }

  it.each(CODEX_ROUTES)('answers a plain turn on $model over one WebSocket connection, never over HTTP', async route => {
    const { run, http, upgrades, rows } = await codex('Say hello', route.model);
    expectCompletedTurn(run);
    expect(String(completedItems(run, 'agent_message')[0]!.text).startsWith('Say hello')).toBe(true);
    expect(http.filter(request => request.url.startsWith('/v1/responses'))).toEqual([]);
    expect(upgrades).toEqual(['/v1/responses']);
    expect(rows.map(row => `${row.protocol} ${row.model} ${row.outcome}`)).toEqual([`openai-responses-ws ${route.model} completed`]);
  });

  it.each(CODEX_ROUTES)('completes a shell tool round trip on $model over the same connection', async route => {
    const { run, http, upgrades, rows } = await codex('Use exec_command to run `cat notes.txt`', route.model);
    expectCompletedTurn(run);
    const commands = completedItems(run, 'command_execution');
    expect(commands).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, aggregated_output: `${FILE_CONTENT}\n` })]);
    const messages = completedItems(run, 'agent_message').map(item => String(item.text));
    expect(messages).toEqual(['I will call exec_command.', expect.stringContaining(FILE_CONTENT.slice(0, 40))]);
    expect(http.filter(request => request.url.startsWith('/v1/responses'))).toEqual([]);
    expect(upgrades).toEqual(['/v1/responses']);
    expect(rows.map(row => `${row.protocol} ${row.outcome}`)).toEqual(['openai-responses-ws completed', 'openai-responses-ws completed']);
  });
});
