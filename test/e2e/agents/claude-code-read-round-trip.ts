import { join } from 'node:path';
import type { TestGateway } from '../../helpers/start-test-gateway';
import { isolatedEnvironment, logGatewayRequests, runCli, type AgentSandbox, type EgressTrap } from './agent-sandbox';
import { claudeCodeBinary, claudeCodeEnvironment } from './claude-code-environment';

const CLAUDE = claudeCodeBinary(require.resolve);
/** A CLI run that has not ended after this long is killed. */
export const CLAUDE_RUN_TIMEOUT_MS = 20_000;

/**
 * The real Claude Code CLI in print mode on `model`, asked to read `notes.txt` of the sandbox
 * (which holds `fileContent`): asserts the two-turn Read round trip through the gateway, the
 * tool call, the file in the answer and two `POST /v1/messages?beta=true` calls; the caller checks
 * what reached its cloud.
 */
export async function expectClaudeReadRoundTrip(options: { server: TestGateway; sandbox: AgentSandbox; trap: EgressTrap; model: string; fileContent: string }): Promise<void> {
  const { server, sandbox, trap, model } = options;
  const file = join(sandbox.cwd, 'notes.txt');
  const log = logGatewayRequests(server.server);
  const run = await runCli(CLAUDE, ['-p', '--output-format', 'stream-json', '--verbose', '--model', model, `Read \`${file}\` and tell me what it says`], {
    cwd: sandbox.cwd,
    timeoutMs: CLAUDE_RUN_TIMEOUT_MS,
    env: { ...isolatedEnvironment(sandbox, trap), ...claudeCodeEnvironment(sandbox, { baseURL: server.url, apiKey: server.demoKey }) },
  });
  log.stop();
  const result = run.events.find(event => event.type === 'result');
  expect(run.code).toBe(0);
  expect(result).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
  expect(String(result!.result)).toContain(options.fileContent.slice(0, 16));
  const blocks = (role: string, type: string) =>
    run.events
      .filter(event => event.type === role)
      .flatMap(event => (event.message as { content: Array<Record<string, unknown>> }).content)
      .filter(block => block.type === type);
  expect(blocks('assistant', 'tool_use')).toEqual([expect.objectContaining({ name: 'Read', input: { file_path: file } })]);
  expect(JSON.stringify(blocks('user', 'tool_result')[0]?.content)).toContain(options.fileContent);
  expect(log.requests.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual(['POST /v1/messages?beta=true 200', 'POST /v1/messages?beta=true 200']);
}
