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
    const defaults = createDefaultConfig(EMBEDDED_SIMULATOR);
    const viaResponses = defaults.routes.find(route => route.model === 'sim-via-responses')!;
    // A route kept off the WebSocket mode: its response.create frames get the 426 error frame.
    const httpOnly = { ...viaResponses, model: 'sim-http-only', webSocket: false };
    writeFileSync(configPath, JSON.stringify({ ...defaults, routes: [...defaults.routes, httpOnly] }));
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

  it('goes on over HTTP for a route with webSocket: false, once its response.create frames got the 426 error frame', async () => {
    const { run, http, rows } = await codex('Say hello', 'sim-http-only');
    // Codex 0.169 retries a refused WebSocket response 5 times (about 8 s of backoff) before its HTTP fallback.
    const fallback = run.events.find(event => event.type === 'item.completed' && String((event.item as { message?: string }).message).startsWith('Falling back from WebSockets'));
    expect(fallback).toBeDefined();
    expect(run.events.map(event => event.type)).toContain('turn.completed');
    expect(String(completedItems(run, 'agent_message')[0]!.text).startsWith('Say hello')).toBe(true);
    expect(http.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual(['POST /v1/responses 200']);
    const refused = rows.filter(row => row.protocol === 'openai-responses-ws');
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map(row => `${row.status} ${row.errorCode}`))).toEqual(new Set(['426 WEBSOCKET_NOT_SUPPORTED']));
    expect(rows.filter(row => row.protocol === 'openai-responses').map(row => `${row.model} ${row.outcome}`)).toEqual(['sim-http-only completed']);
  });

  it.each(CODEX_ROUTES)('completes a three-call shell tool loop on $model over the same connection', async route => {
    const { run, http, upgrades, rows } = await codex('Use exec_command to run `cat notes.txt` [[sim:tool-rounds=3]]', route.model);
    expectCompletedTurn(run);
    const commands = completedItems(run, 'command_execution');
    expect(commands).toHaveLength(3);
    for (const command of commands) expect(command).toMatchObject({ status: 'completed', exit_code: 0, aggregated_output: `${FILE_CONTENT}\n` });
    const messages = completedItems(run, 'agent_message').map(item => String(item.text));
    expect(messages.at(-1)).toContain(FILE_CONTENT.slice(0, 40));
    expect(http.filter(request => request.url.startsWith('/v1/responses'))).toEqual([]);
    expect(upgrades).toEqual(['/v1/responses']);
    expect(rows.map(row => `${row.protocol} ${row.outcome}`)).toEqual(Array(4).fill('openai-responses-ws completed'));
  });
});
