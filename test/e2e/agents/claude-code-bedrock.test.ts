import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWithConfig } from '../../errors/refusal-helpers';
import { startBedrockEmulator, type BedrockEmulator } from '../../helpers/start-bedrock-emulator';
import type { TestGateway } from '../../helpers/start-test-gateway';
import { createAgentSandbox, isolatedEnvironment, logGatewayRequests, runCli, startEgressTrap, type AgentSandbox, type CliRun, type EgressTrap } from './agent-sandbox';
import { claudeCodeBinary, claudeCodeEnvironment } from './claude-code-environment';

const CLAUDE = claudeCodeBinary(require.resolve);
/** A CLI run that has not ended after this long is killed; the test runs one. */
const RUN_TIMEOUT_MS = 20_000;
jest.setTimeout(RUN_TIMEOUT_MS + 10_000);
const FILE_CONTENT = 'fjord-notes-7f3a: snow chains are in the boot';
const MODEL_ID = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const BEDROCK_API_KEY = `ABSK${randomBytes(40).toString('base64')}`;

/**
 * The real Claude Code CLI (print mode, unmodified, sandboxed and offline as in
 * claude-code-cli.test.ts) through a route whose upstream is Bedrock (kind `bedrock`, an emulated
 * Bedrock Runtime with a Bedrock API key): a Read tool round trip, both calls reaching Bedrock's
 * invoke path with the CLI's beta flags in the body.
 */
describe('Claude Code CLI through an Amazon Bedrock upstream', () => {
  let bedrock: BedrockEmulator;
  let server: TestGateway;
  let trap: EgressTrap;
  let sandbox: AgentSandbox;

  beforeAll(async () => {
    bedrock = await startBedrockEmulator({ keyOf: () => undefined, apiKeys: [BEDROCK_API_KEY] });
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: { ...config.upstreams, bedrock: { kind: 'bedrock', protocol: 'anthropic-messages', baseURL: bedrock.baseURL, apiKeyEnv: 'BEDROCK_API_KEY' } },
        routes: [...config.routes, { model: 'bedrock-claude', interfaces: ['messages'], targets: [{ upstream: 'bedrock', model: MODEL_ID }] }],
      }),
      { environment: { BEDROCK_API_KEY } },
    );
    trap = await startEgressTrap();
    sandbox = createAgentSandbox('signalbox-claude-code-bedrock-');
    writeFileSync(join(sandbox.cwd, 'notes.txt'), `${FILE_CONTENT}\n`);
  });
  afterAll(async () => {
    await trap?.close();
    await server?.close(1_000);
    await bedrock?.close();
    sandbox?.remove();
  });
  afterEach(() => expect(trap.attempts.splice(0)).toEqual([]));

  function blocksOf(run: CliRun, role: 'assistant' | 'user', type: string): Array<Record<string, unknown>> {
    return run.events
      .filter(event => event.type === role)
      .flatMap(event => (event.message as { content: Array<Record<string, unknown>> }).content)
      .filter(block => block.type === type);
  }

  it('completes a Read tool round trip, each call reaching Bedrock streamed with the CLI betas in the body', async () => {
    const file = join(sandbox.cwd, 'notes.txt');
    const log = logGatewayRequests(server.server);
    const before = bedrock.calls.length;
    const run = await runCli(CLAUDE, ['-p', '--output-format', 'stream-json', '--verbose', '--model', 'bedrock-claude', `Read \`${file}\` and tell me what it says`], {
      cwd: sandbox.cwd,
      timeoutMs: RUN_TIMEOUT_MS,
      env: { ...isolatedEnvironment(sandbox, trap), ...claudeCodeEnvironment(sandbox, { baseURL: server.url, apiKey: server.demoKey }) },
    });
    log.stop();
    const result = run.events.find(event => event.type === 'result');
    expect(run.code).toBe(0);
    expect(result).toMatchObject({ subtype: 'success', is_error: false, num_turns: 2 });
    expect(blocksOf(run, 'assistant', 'tool_use')).toEqual([expect.objectContaining({ name: 'Read', input: { file_path: file } })]);
    expect(JSON.stringify(blocksOf(run, 'user', 'tool_result')[0]!.content)).toContain(FILE_CONTENT);
    expect(String(result!.result)).toContain('fjord-notes-7f3a');
    expect(log.requests.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual(['POST /v1/messages?beta=true 200', 'POST /v1/messages?beta=true 200']);
    const calls = bedrock.calls.slice(before);
    expect(calls.map(call => [call.path, call.scheme, call.accepted])).toEqual([
      ['/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream', 'bearer', true],
      ['/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream', 'bearer', true],
    ]);
    expect(calls[0]!.body!['anthropic_beta']).toEqual(expect.arrayContaining(['claude-code-20250219']));
  });
});
