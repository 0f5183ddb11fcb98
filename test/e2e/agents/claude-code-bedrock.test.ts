import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWithConfig } from '../../errors/refusal-helpers';
import { startBedrockEmulator, type BedrockEmulator } from '../../helpers/start-bedrock-emulator';
import type { TestGateway } from '../../helpers/start-test-gateway';
import { createAgentSandbox, startEgressTrap, type AgentSandbox, type EgressTrap } from './agent-sandbox';
import { CLAUDE_RUN_TIMEOUT_MS, expectClaudeReadRoundTrip } from './claude-code-read-round-trip';

jest.setTimeout(CLAUDE_RUN_TIMEOUT_MS + 10_000);
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

  it('completes a Read tool round trip, each call reaching Bedrock streamed with the CLI betas in the body', async () => {
    const before = bedrock.calls.length;
    await expectClaudeReadRoundTrip({ server, sandbox, trap, model: 'bedrock-claude', fileContent: FILE_CONTENT });
    const calls = bedrock.calls.slice(before);
    expect(calls.map(call => [call.path, call.scheme, call.accepted])).toEqual([
      ['/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream', 'bearer', true],
      ['/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream', 'bearer', true],
    ]);
    expect(calls[0]!.body!['anthropic_beta']).toEqual(expect.arrayContaining(['claude-code-20250219']));
  });
});
