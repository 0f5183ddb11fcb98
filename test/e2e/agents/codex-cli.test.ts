import type { IncomingMessage } from 'node:http';
import { zstdCompressSync } from 'node:zlib';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from '../../../examples/server/src';
import type { TestGateway } from '../../helpers/start-test-gateway';
import { logGatewayRequests, startRecordingProxy } from './agent-sandbox';
import { CODEX_ROUTES, codexConfig, completedItems, expectCompletedTurn } from './codex-cli';
import { useCodexGateway } from './use-codex-gateway';

/**
 * The real Codex CLI (`@openai/codex`, pinned in devDependencies, unmodified) in `codex exec --json`
 * against the example server, with a custom provider on the Responses wire API, on every default
 * route that serves the Responses interface. Offline: `CODEX_HOME`, HOME and TMPDIR are a throwaway
 * sandbox, update checks and analytics are off in its config, and a proxy on 127.0.0.1 catches
 * anything it would still send beyond loopback. The gateway's config adds `forwardClientHeaders:
 * ["x-codex-*"]` to the embedded defaults, so Codex's metadata headers reach Responses upstreams.
 */

/** A CLI run that has not ended after this long is killed; a test runs at most two, within its own bound. */
const RUN_TIMEOUT_MS = 20_000;
jest.setTimeout(2 * RUN_TIMEOUT_MS + 5_000);
const FILE_CONTENT = 'fjord-notes-7f3a: snow chains are in the boot';

describe('Codex CLI (codex exec --json) through the example server', () => {
  const harness = useCodexGateway({
    prefix: 'signalbox-codex-',
    gatewayConfig: { ...createDefaultConfig(EMBEDDED_SIMULATOR), forwardClientHeaders: ['x-codex-*'] },
    fileContent: FILE_CONTENT,
    runTimeoutMs: RUN_TIMEOUT_MS,
  });
  const codex = (prompt: string, config: string, apiKey?: string) => harness.codex(prompt, config, apiKey);
  let server: TestGateway;
  beforeAll(() => {
    server = harness.server;
  });

  it.each(CODEX_ROUTES)('answers a plain turn on $model in one Responses request, with its x-codex-* headers forwarded only to a Responses upstream', async route => {
    const { run, gateway, upstream } = await codex('Say hello', codexConfig({ model: route.model, baseURL: server.url }));
    expectCompletedTurn(run);
    const messages = completedItems(run, 'agent_message');
    expect(messages).toHaveLength(1);
    expect(String(messages[0]!.text).startsWith('Say hello')).toBe(true);
    expect(gateway.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual(['POST /v1/responses 200']);
    expect(upstream.map(request => request.url)).toEqual([route.upstreamPath]);
    const sentMetadata = gateway[0]!.headers['x-codex-turn-metadata'];
    expect(typeof sentMetadata).toBe('string');
    const expectedMetadata = route.upstreamPath === '/v1/responses' ? sentMetadata : undefined;
    expect(upstream[0]!.headers['x-codex-turn-metadata']).toBe(expectedMetadata);
  });

  it.each(CODEX_ROUTES)('completes a shell tool round trip on $model: exec_command runs in the sandbox and its output comes back in the next request', async route => {
    const { run, gateway, upstream } = await codex('Use exec_command to run `cat notes.txt`', codexConfig({ model: route.model, baseURL: server.url }));
    expectCompletedTurn(run);
    const commands = completedItems(run, 'command_execution');
    expect(commands).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, aggregated_output: `${FILE_CONTENT}\n` })]);
    expect(String(commands[0]!.command)).toContain('cat notes.txt');
    const messages = completedItems(run, 'agent_message').map(item => String(item.text));
    expect(messages).toEqual(['I will call exec_command.', expect.stringContaining(FILE_CONTENT.slice(0, 40))]);
    expect(gateway.map(request => `${request.method} ${request.url} ${request.status}`)).toEqual(['POST /v1/responses 200', 'POST /v1/responses 200']);
    expect(upstream.map(request => request.url)).toEqual([route.upstreamPath, route.upstreamPath]);
  });

  it('runs the command a plain prompt mentions ("Run cat notes.txt …") with exec_command, as the README suggests', async () => {
    const { run } = await codex('Run cat notes.txt and tell me what it prints', codexConfig({ model: 'signalbox-sim', baseURL: server.url }));
    expectCompletedTurn(run);
    const commands = completedItems(run, 'command_execution');
    expect(commands).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, aggregated_output: `${FILE_CONTENT}\n` })]);
    expect(String(commands[0]!.command)).toMatch(/ -lc '?cat notes\.txt'?$/);
    const messages = completedItems(run, 'agent_message').map(item => String(item.text));
    expect(messages).toEqual(['I will call exec_command.', expect.stringContaining(FILE_CONTENT.slice(0, 40))]);
  });

  it('sends uncompressed bodies to an API-key provider even with enable_request_compression on (Codex 0.169 compresses with zstd only when signed in with ChatGPT), and the same body zstd-compressed is served', async () => {
    const proxy = await startRecordingProxy(server.url);
    const recorded = proxy.exchanges;
    try {
      const config = codexConfig({ model: 'sim-via-messages', baseURL: proxy.url, featureLines: ['enable_request_compression = true'] });
      const { run, gateway } = await codex('Say hello', config);
      expectCompletedTurn(run);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]!.headers['content-encoding']).toBeUndefined();
      expect(gateway.map(request => request.headers['content-encoding'])).toEqual([undefined]);
    } finally {
      await proxy.close();
    }
    // Codex's own first request, compressed the way Codex compresses it for ChatGPT sign-in.
    const log = logGatewayRequests(server.server);
    const response = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { ...codexHeaders(recorded[0]!.headers), authorization: `Bearer ${server.demoKey}`, 'content-encoding': 'zstd' },
      body: zstdCompressSync(recorded[0]!.body),
    });
    const text = await response.text();
    log.stop();
    expect(response.status).toBe(200);
    expect(text).toContain('event: response.completed');
    expect(log.requests.map(request => request.headers['content-encoding'])).toEqual(['zstd']);
  });

  it('is answered by the simulator addressed directly, as by the vendor’s API (plain turn, shell round trip, WebSocket probe)', async () => {
    const config = codexConfig({ model: 'sim-1', baseURL: server.simulatorURL, providerLines: ['supports_websockets = true'] });
    const { run: plain } = await codex('Say hello', config, 'sk-simulated');
    expectCompletedTurn(plain);
    expect(String(completedItems(plain, 'agent_message')[0]?.text).startsWith('Say hello')).toBe(true);
    const { run: tool } = await codex('Use exec_command to run `cat notes.txt`', config, 'sk-simulated');
    expectCompletedTurn(tool);
    expect(completedItems(tool, 'agent_message').map(item => String(item.text))).toEqual(['I will call exec_command.', expect.stringContaining(FILE_CONTENT.slice(0, 40))]);
  });
});

/** The request headers worth replaying (Codex's own metadata), without transport and auth headers. */
function codexHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string' || ['host', 'content-length', 'connection', 'authorization', 'content-encoding'].includes(name)) continue;
    kept[name] = value;
  }
  return kept;
}
