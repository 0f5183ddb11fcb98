import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from '../../../examples/server/src';
import { CODEX_ROUTES, codexConfig, completedItems, expectCompletedTurn } from './codex-cli';
import { useCodexGateway } from './use-codex-gateway';

/**
 * The real Codex CLI with `supports_websockets = true` on every default route that serves the
 * Responses interface: its turns travel over the gateway's WebSocket mode (each response recorded
 * as `openai-responses-ws`, no `POST /v1/responses` at all), not the HTTP fallback. Offline, as in
 * codex-cli.test.ts.
 */
const RUN_TIMEOUT_MS = 30_000;
jest.setTimeout(2 * RUN_TIMEOUT_MS + 5_000);
const FILE_CONTENT = 'harbour-notes-91c2: the ferry leaves at nine';
/** A first session that ends above this many tokens (the simulator counts one per four characters), and a compacted one below. */
const COMPACT_TOKEN_LIMIT = 6_500;
const LONG_FILE = Array.from({ length: 400 }, (_, index) => `line ${index}: the harbour crane lifts container ${index} onto the quay\n`).join('');
const SHORT_FILE = 'manifest closed: every container is on the quay\n';

describe('Codex CLI over the WebSocket mode of the example server', () => {
  const defaults = createDefaultConfig(EMBEDDED_SIMULATOR);
  const viaResponses = defaults.routes.find(route => route.model === 'sim-via-responses')!;
  // A route kept off the WebSocket mode: its response.create frames get the 426 error frame.
  const httpOnly = { ...viaResponses, model: 'sim-http-only', webSocket: false };
  const harness = useCodexGateway({
    prefix: 'signalbox-codex-ws-',
    gatewayConfig: { ...defaults, routes: [...defaults.routes, httpOnly] },
    fileContent: FILE_CONTENT,
    runTimeoutMs: RUN_TIMEOUT_MS,
  });

  async function codex(prompt: string | readonly string[], model: string, providerName?: string, providerLines: readonly string[] = []) {
    const config = codexConfig({ model, baseURL: harness.server.url, providerLines: ['supports_websockets = true', ...providerLines], ...(providerName && { providerName }) });
    const result = await harness.codex(prompt, config);
    return { ...result, http: result.gateway };
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
    // Codex 0.169 retries a refused WebSocket response `stream_max_retries` times (5 by default, about
    // 8 s of backoff) before its HTTP fallback: once is enough to show the fallback.
    const { run, http, rows } = await codex('Say hello', 'sim-http-only', undefined, ['stream_max_retries = 1']);
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

  it.each(CODEX_ROUTES)('compacts remotely on $model over the same transport: the resumed turn compacts, then completes its shell round trip', async route => {
    // As in codex-compaction.test.ts: a long first session, resumed with a limit between the compacted and the whole conversation.
    writeFileSync(join(harness.cwd, 'manifest.txt'), LONG_FILE);
    const first = await codex('Use exec_command to run `cat manifest.txt`', route.model, 'OpenAI');
    expectCompletedTurn(first.run);
    const thread = String(first.run.events.find(event => event.type === 'thread.started')?.thread_id);
    writeFileSync(join(harness.cwd, 'manifest.txt'), SHORT_FILE);
    const resumed = await codex(['-c', `model_auto_compact_token_limit=${COMPACT_TOKEN_LIMIT}`, 'resume', thread, 'Use exec_command to run `cat manifest.txt` once more'], route.model, 'OpenAI');
    expectCompletedTurn(resumed.run);
    expect(completedItems(resumed.run, 'command_execution')).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, aggregated_output: SHORT_FILE })]);
    expect(resumed.http.filter(request => request.url.startsWith('/v1/responses'))).toEqual([]);
    // The compaction, the turn and its tool round trip: three responses over WebSocket, and three upstream calls
    // (the summary, then the two turns), where a resumed turn without compaction makes two.
    expect(resumed.rows.map(row => `${row.protocol} ${row.outcome}`)).toEqual(Array(3).fill('openai-responses-ws completed'));
    expect(resumed.upstream).toHaveLength(3);
  });
});
