import { createDefaultConfig, EMBEDDED_SIMULATOR } from '../../../examples/server/src';
import { CLAUDE_RUN_TIMEOUT_MS, expectClaudeReadRoundTrip } from './claude-code-read-round-trip';
import { codexConfig, completedItems, expectCompletedTurn } from './codex-cli';
import { withGeminiSimulatorRoute } from './gemini-routes';
import { useCodexGateway } from './use-codex-gateway';

/**
 * The real Claude Code and Codex CLIs (unmodified, sandboxed and offline as in claude-code-cli.test.ts
 * and codex-cli.test.ts) on `sim-via-gemini`, a route whose upstream is the embedded simulator's
 * Gemini API: each completes its tool round trip, both turns streamed from `:streamGenerateContent`.
 */
const RUN_TIMEOUT_MS = 20_000;
jest.setTimeout(Math.max(RUN_TIMEOUT_MS, CLAUDE_RUN_TIMEOUT_MS) + 10_000);
const FILE_CONTENT = 'fjord-notes-7f3a: snow chains are in the boot';
const MODEL = 'sim-via-gemini';
const GEMINI_TURN = '/v1beta/models/sim-1:streamGenerateContent?alt=sse';

describe('Claude Code and Codex on a route whose upstream is the Gemini API', () => {
  const harness = useCodexGateway({
    prefix: 'signalbox-agents-gemini-',
    gatewayConfig: withGeminiSimulatorRoute(createDefaultConfig(EMBEDDED_SIMULATOR)),
    fileContent: FILE_CONTENT,
    runTimeoutMs: RUN_TIMEOUT_MS,
  });

  it('Claude Code completes a Read round trip, each Messages turn served by the Gemini upstream', async () => {
    const { server } = harness;
    const upstreamBefore = server.simulator.requests().length;
    const rowsBefore = server.recentUsage().length;
    await expectClaudeReadRoundTrip({ server, sandbox: harness.sandbox, trap: harness.trap, model: MODEL, fileContent: FILE_CONTENT });
    expect(server.simulator.requests().slice(upstreamBefore).map(request => request.url)).toEqual([GEMINI_TURN, GEMINI_TURN]);
    expect(server.recentUsage().slice(rowsBefore).map(row => [row.protocol, row.upstream, row.upstreamProtocol, row.outcome])).toEqual([
      ['anthropic-messages', 'simulator-gemini', 'google-gemini', 'completed'],
      ['anthropic-messages', 'simulator-gemini', 'google-gemini', 'completed'],
    ]);
  });

  it('Codex completes a shell round trip: exec_command runs and its output comes back, each Responses turn served by the Gemini upstream', async () => {
    const { run, gateway, upstream, rows } = await harness.codex('Use exec_command to run `cat notes.txt`', codexConfig({ model: MODEL, baseURL: harness.server.url }));
    expectCompletedTurn(run);
    expect(completedItems(run, 'command_execution')).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, aggregated_output: `${FILE_CONTENT}\n` })]);
    const messages = completedItems(run, 'agent_message').map(item => String(item.text));
    expect(messages).toEqual(['I will call exec_command.', expect.stringContaining(FILE_CONTENT.slice(0, 40))]);
    expect(gateway.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual(['POST /v1/responses 200', 'POST /v1/responses 200']);
    expect(upstream.map(request => request.url)).toEqual([GEMINI_TURN, GEMINI_TURN]);
    expect(rows.map(row => [row.protocol, row.upstream, row.upstreamProtocol, row.outcome])).toEqual([
      ['openai-responses', 'simulator-gemini', 'google-gemini', 'completed'],
      ['openai-responses', 'simulator-gemini', 'google-gemini', 'completed'],
    ]);
  });
});
