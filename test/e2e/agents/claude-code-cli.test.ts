import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '../../helpers/start-test-gateway';
import { inAgentWorld, isolatedEnvironment, logGatewayRequests, runCli, type AgentWorld, type CliRun } from './agent-sandbox';
import { claudeCodeBinary, claudeCodeEnvironment } from './claude-code-environment';

/**
 * The real Claude Code CLI (`@anthropic-ai/claude-code`, pinned in devDependencies, unmodified) in
 * print mode against the example server, on every default route that serves the Messages
 * interface. It runs offline: its HOME, config and temp folders are a throwaway sandbox, the
 * documented switches turn off auto-update, telemetry and other non-essential traffic, and a proxy
 * on 127.0.0.1 catches anything it would still send beyond loopback. Each test has a gateway and a
 * sandbox of its own, so the tests run side by side: a run is mostly the CLI's own start-up.
 */
const CLAUDE = claudeCodeBinary(require.resolve);
const ROUTES = [
  { model: 'signalbox-sim', upstreamPath: '/v1/messages?beta=true' },
  { model: 'sim-via-messages', upstreamPath: '/v1/messages?beta=true' },
  { model: 'sim-via-responses', upstreamPath: '/v1/responses' },
  { model: 'sim-via-chat', upstreamPath: '/v1/chat/completions' },
] as const;
/** With experimental betas on, Claude Code also sends `context_management` and its beta flag; off, neither. */
const BETA_MODES = [
  { name: 'experimental betas on (the default)', environment: {}, contextManagement: true },
  { name: 'experimental betas off (CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS=1)', environment: { CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS: '1' }, contextManagement: false },
] as const;
/** Every route in every beta mode: one level of tests, so that all of them run side by side. */
const ROUTES_BY_MODE = BETA_MODES.flatMap(mode => ROUTES.map(route => ({ ...route, mode })));
const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';
/**
 * A CLI run that has not ended after this long is killed; a test runs at most two, within its own
 * bound. Runs share the cores with the file's other runs, so the bound is generous: a run that
 * works ends in seconds.
 */
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 2 * RUN_TIMEOUT_MS + 5_000;
const FILE_CONTENT = 'fjord-notes-7f3a: snow chains are in the boot';

describe('Claude Code CLI (claude -p --output-format stream-json) through the example server', () => {
  /** A test's own gateway, egress trap and sandbox (with `notes.txt`); fails if the CLI tried to leave loopback. */
  const inWorld = <Result>(body: (world: AgentWorld<TestGateway>) => Promise<Result>) =>
    inAgentWorld({ prefix: 'signalbox-claude-code-', startServer: () => startTestGateway(), files: { 'notes.txt': `${FILE_CONTENT}\n` } }, body);

  async function claude({ server, trap, sandbox }: AgentWorld<TestGateway>, model: string, prompt: string, extra: Record<string, string>) {
    const log = logGatewayRequests(server.server);
    const before = server.simulator.requests().length;
    const run = await runCli(CLAUDE, ['-p', '--output-format', 'stream-json', '--verbose', '--model', model, prompt], {
      cwd: sandbox.cwd,
      timeoutMs: RUN_TIMEOUT_MS,
      env: { ...isolatedEnvironment(sandbox, trap), ...claudeCodeEnvironment(sandbox, { baseURL: server.url, apiKey: server.demoKey }), ...extra },
    });
    log.stop();
    return { run, gateway: log.requests, upstream: server.simulator.requests().slice(before) };
  }

  function resultOf(run: CliRun): Record<string, unknown> {
    const result = run.events.find(event => event.type === 'result');
    if (result === undefined) throw new Error(`no result event (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
    return result;
  }

  /** The content blocks of one type in the run's messages of one role (`tool_use` from the assistant, `tool_result` from the user). */
  function blocksOf(run: CliRun, role: 'assistant' | 'user', type: string): Array<Record<string, unknown>> {
    return run.events
      .filter(event => event.type === role)
      .flatMap(event => (event.message as { content: Array<Record<string, unknown>> }).content)
      .filter(block => block.type === type);
  }

  it.concurrent.each(ROUTES_BY_MODE)('with $mode.name: answers a plain turn on $model in one Messages request', ({ mode, ...route }) => inWorld(async world => {
    const { run, gateway, upstream } = await claude(world, route.model, 'Say hello', mode.environment);
    const result = resultOf(run);
    expect(run.code).toBe(0);
    expect(result).toMatchObject({ subtype: 'success', is_error: false, num_turns: 1 });
    expect(String(result.result).startsWith('Say hello')).toBe(true);
    expect(gateway.map(request => `${request.method} ${request.url}`)).toEqual(['POST /v1/messages?beta=true']);
    expect(upstream.map(request => request.url)).toEqual([route.upstreamPath]);
    const betas = String(gateway[0]!.headers['anthropic-beta'] ?? '');
    expect(betas.split(',').includes('claude-code-20250219')).toBe(true);
    expect(betas.split(',').includes(CONTEXT_MANAGEMENT_BETA)).toBe(mode.contextManagement);
    if (route.upstreamPath.startsWith('/v1/messages')) {
      // The client's beta flags reach the Messages upstream as they were sent.
      expect(betas).not.toBe('');
      expect(upstream[0]!.headers['anthropic-beta']).toBe(betas.split(',').map(flag => flag.trim()).join(','));
    } else {
      expect(upstream[0]!.headers['anthropic-beta']).toBeUndefined();
    }
  }), TEST_TIMEOUT_MS);

  it.concurrent.each(ROUTES_BY_MODE)('with $mode.name: completes a Read tool round trip on $model: the call, then an answer carrying the file', ({ mode, ...route }) => inWorld(async world => {
    const file = join(world.sandbox.cwd, 'notes.txt');
    const { run, gateway, upstream } = await claude(world, route.model, `Read \`${file}\` and tell me what it says`, mode.environment);
    const result = resultOf(run);
    expect(run.code).toBe(0);
    expect(result).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
    expect(blocksOf(run, 'assistant', 'tool_use')).toEqual([expect.objectContaining({ name: 'Read', input: { file_path: file } })]);
    const toolResults = blocksOf(run, 'user', 'tool_result');
    expect(toolResults).toHaveLength(1);
    expect(toolResults[0]!.is_error).toBeFalsy();
    expect(JSON.stringify(toolResults[0]!.content)).toContain(FILE_CONTENT);
    expect(String(result.result)).toContain('fjord-notes-7f3a');
    expect(gateway.map(request => `${request.method} ${request.url}`)).toEqual(['POST /v1/messages?beta=true', 'POST /v1/messages?beta=true']);
    expect(upstream.map(request => request.url)).toEqual([route.upstreamPath, route.upstreamPath]);
  }), TEST_TIMEOUT_MS);

  it.concurrent.each([
    { prompt: 'Read notes.txt and tell me what it says', tool: 'Read', input: { file_path: 'notes.txt' } },
    { prompt: 'Run cat notes.txt and tell me what it prints', tool: 'Bash', input: { command: 'cat notes.txt' } },
  ])('calls $tool with the file or command a plain prompt mentions ("$prompt"), as the README suggests', ({ prompt, tool, input }) => inWorld(async world => {
    const { run } = await claude(world, 'signalbox-sim', prompt, {});
    const result = resultOf(run);
    expect(run.code).toBe(0);
    expect(result).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
    expect(blocksOf(run, 'assistant', 'tool_use')).toEqual([expect.objectContaining({ name: tool, input })]);
    expect(String(result.result)).toContain('fjord-notes-7f3a');
  }), TEST_TIMEOUT_MS);

  it.concurrent('is answered by the simulator addressed directly, as by the vendor’s API (plain turn and Read round trip)', () => inWorld(async ({ server, trap, sandbox }) => {
    const file = join(sandbox.cwd, 'notes.txt');
    for (const [prompt, turns] of [['Say hello', 1], [`Read \`${file}\` and tell me what it says`, 2]] as const) {
      const run = await runCli(CLAUDE, ['-p', '--output-format', 'stream-json', '--verbose', '--model', 'sim-1', prompt], {
        cwd: sandbox.cwd,
        timeoutMs: RUN_TIMEOUT_MS,
        env: { ...isolatedEnvironment(sandbox, trap), ...claudeCodeEnvironment(sandbox, { baseURL: server.simulatorURL, apiKey: 'sk-ant-simulated' }) },
      });
      expect(resultOf(run)).toMatchObject({ subtype: 'success', is_error: false, num_turns: turns });
    }
  }), TEST_TIMEOUT_MS);
});
