import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWithConfig } from '../../errors/refusal-helpers';
import type { TestGateway } from '../../helpers/start-test-gateway';
import { createAgentSandbox, logGatewayRequests, startEgressTrap, type AgentSandbox, type EgressTrap } from './agent-sandbox';
import { expectReadFileRoundTrip, expectSuccessfulRun, finalAnswer, runGeminiCli } from './gemini-cli';
import { withGeminiSimulatorRoute } from './gemini-routes';

/**
 * The real Gemini CLI (`@google/gemini-cli`, unmodified, sandboxed and offline as in
 * gemini-cli.test.ts) pointed at the example server with a gateway key, on a route per upstream
 * protocol: the Gemini API, Messages, Responses and Chat, each reached on the embedded simulator.
 * `-m <route>` names the model, so the CLI skips its routing call and sends only its turns.
 */
const RUN_TIMEOUT_MS = 30_000;
jest.setTimeout(RUN_TIMEOUT_MS + 5_000);
const FILE_CONTENT = 'fjord-notes-7f3a: snow chains are in the boot';
const ROUTES = [
  { model: 'sim-via-gemini', upstream: 'simulator-gemini', upstreamProtocol: 'google-gemini', upstreamPath: '/v1beta/models/sim-1:streamGenerateContent?alt=sse' },
  { model: 'sim-via-messages', upstream: 'simulator-messages', upstreamProtocol: 'anthropic-messages', upstreamPath: '/v1/messages' },
  { model: 'sim-via-responses', upstream: 'simulator-responses', upstreamProtocol: 'openai-responses', upstreamPath: '/v1/responses' },
  { model: 'sim-via-chat', upstream: 'simulator-chat', upstreamProtocol: 'openai-chat', upstreamPath: '/v1/chat/completions' },
] as const;

describe('Gemini CLI (gemini -p --output-format stream-json) through the example server', () => {
  let server: TestGateway;
  let trap: EgressTrap;
  let sandbox: AgentSandbox;

  beforeAll(async () => {
    server = await startWithConfig(withGeminiSimulatorRoute);
    trap = await startEgressTrap();
    sandbox = createAgentSandbox('signalbox-gemini-cli-gateway-');
    writeFileSync(join(sandbox.cwd, 'notes.txt'), `${FILE_CONTENT}\n`);
  });
  afterAll(async () => {
    await trap?.close();
    await server?.close(1_000);
    sandbox?.remove();
  });
  // Nothing left loopback: every attempt the CLI made to reach another host is listed here.
  afterEach(() => expect(trap.attempts.splice(0)).toEqual([]));

  async function gemini(model: string, prompt: string) {
    const log = logGatewayRequests(server.server);
    const upstreamBefore = server.simulator.requests().length;
    const rowsBefore = server.recentUsage().length;
    const run = await runGeminiCli(sandbox, trap, { baseURL: server.url, apiKey: server.demoKey }, prompt, { timeoutMs: RUN_TIMEOUT_MS, args: ['-m', model] });
    log.stop();
    return { run, gateway: log.requests, upstream: server.simulator.requests().slice(upstreamBefore), rows: server.recentUsage().slice(rowsBefore) };
  }
  const turnLine = (model: string) => `POST /v1beta/models/${model}:streamGenerateContent?alt=sse 200`;

  it.each(ROUTES)('answers a plain turn on $model in one streamed Gemini request, served by its $upstreamProtocol upstream', async route => {
    const { run, gateway, upstream, rows } = await gemini(route.model, 'Say hello');
    expectSuccessfulRun(run);
    expect(finalAnswer(run).startsWith('Say hello')).toBe(true);
    expect(gateway.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual([turnLine(route.model)]);
    expect(gateway[0]!.headers['x-goog-api-key']).toBe(server.demoKey);
    expect(upstream.map(request => request.url)).toEqual([route.upstreamPath]);
    expect(rows.map(row => [row.model, row.protocol, row.upstream, row.upstreamProtocol, row.outcome])).toEqual([[route.model, 'google-gemini', route.upstream, route.upstreamProtocol, 'completed']]);
  });

  it.each(ROUTES)('completes a read_file round trip on $model: the call, then an answer carrying the file', async route => {
    const { run, gateway, upstream, rows } = await gemini(route.model, 'Use read_file to read notes.txt');
    expectReadFileRoundTrip(run, FILE_CONTENT);
    expect(gateway.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual([turnLine(route.model), turnLine(route.model)]);
    expect(upstream.map(request => request.url)).toEqual([route.upstreamPath, route.upstreamPath]);
    expect(rows.map(row => [row.upstream, row.upstreamProtocol, row.outcome])).toEqual([
      [route.upstream, route.upstreamProtocol, 'completed'],
      [route.upstream, route.upstreamProtocol, 'completed'],
    ]);
  });
});
