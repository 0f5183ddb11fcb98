import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulator, type Simulator } from '@signalbox/simulator';
import { createAgentSandbox, startEgressTrap, startRecordingProxy, type AgentSandbox, type EgressTrap, type RecordingProxy } from './agent-sandbox';
import { expectReadFileRoundTrip, expectSuccessfulRun, finalAnswer, runGeminiCli, type GeminiServer } from './gemini-cli';

/**
 * The real Gemini CLI (`@google/gemini-cli`, pinned in devDependencies, unmodified) in
 * non-interactive mode (`-p`, JSON events) straight against the simulator's Gemini API, through a
 * recording proxy that shows what it sent. Offline: its home, settings and temp folders are a
 * throwaway sandbox, usage statistics, telemetry and auto-update are off in its settings, and a
 * proxy on 127.0.0.1 catches anything it would still send beyond loopback.
 */
const RUN_TIMEOUT_MS = 30_000;
jest.setTimeout(RUN_TIMEOUT_MS + 5_000);
const API_KEY = 'gemini-cli-key';
const FILE_CONTENT = 'fjord-notes-7f3a: snow chains are in the boot';

type SentBody = { contents: { role: string; parts: Record<string, unknown>[] }[]; generationConfig?: Record<string, unknown>; tools?: unknown[] };

describe('Gemini CLI (gemini -p --output-format stream-json) against the simulator', () => {
  let simulator: Simulator;
  let proxy: RecordingProxy;
  let trap: EgressTrap;
  let sandbox: AgentSandbox;
  let server: GeminiServer;

  beforeAll(async () => {
    simulator = createSimulator({ apiKey: API_KEY });
    const { url } = await simulator.listen();
    proxy = await startRecordingProxy(url);
    trap = await startEgressTrap();
    sandbox = createAgentSandbox('signalbox-gemini-cli-');
    writeFileSync(join(sandbox.cwd, 'notes.txt'), `${FILE_CONTENT}\n`);
    server = { baseURL: proxy.url, apiKey: API_KEY };
  });
  afterAll(async () => {
    await trap.close();
    await proxy.close();
    await simulator.close();
    sandbox.remove();
  });
  // Nothing left loopback: every attempt the CLI made to reach another host is listed here.
  afterEach(() => expect(trap.attempts.splice(0)).toEqual([]));

  const sentSince = (before: number) => proxy.exchanges.slice(before);
  const bodyOf = (exchange: RecordingProxy['exchanges'][number]) => JSON.parse(exchange.body.toString('utf8')) as SentBody;

  it('answers a plain turn: a routing call with a JSON schema, then the streamed turn, each with the key in x-goog-api-key', async () => {
    const before = proxy.exchanges.length;
    const run = await runGeminiCli(sandbox, trap, server, 'Say hello', { timeoutMs: RUN_TIMEOUT_MS });
    expectSuccessfulRun(run);
    expect(finalAnswer(run).startsWith('Say hello')).toBe(true);
    const sent = sentSince(before);
    expect(sent.map(exchange => `${exchange.method} ${exchange.url.replace(/models\/[^:]+/, 'models/*')} ${exchange.status}`)).toEqual([
      'POST /v1beta/models/*:generateContent 200',
      'POST /v1beta/models/*:streamGenerateContent?alt=sse 200',
    ]);
    expect(sent.every(exchange => exchange.headers['x-goog-api-key'] === API_KEY)).toBe(true);
    const routing = bodyOf(sent[0]!);
    expect(routing.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    const answerParts = JSON.parse(sent[0]!.answer).candidates[0].content.parts as { text: string; thought?: boolean }[];
    expect(JSON.parse(answerParts.filter(part => part.thought !== true).map(part => part.text).join(''))).toEqual({ complexity_reasoning: expect.any(String), complexity_score: 1 });
    expect(bodyOf(sent[1]!).tools).toEqual([expect.objectContaining({ functionDeclarations: expect.any(Array) })]);
  });

  it('completes a read_file round trip, replaying the thought signature of the call it answers', async () => {
    const before = proxy.exchanges.length;
    const run = await runGeminiCli(sandbox, trap, server, 'Use read_file to read notes.txt', { timeoutMs: RUN_TIMEOUT_MS });
    expectReadFileRoundTrip(run, FILE_CONTENT);
    const turns = sentSince(before).filter(exchange => exchange.url.includes(':streamGenerateContent'));
    expect(turns.map(exchange => exchange.status)).toEqual([200, 200]);
    const [call] = JSON.parse(turns[0]!.answer.split('\r\n\r\n').filter(Boolean).map(event => event.slice('data: '.length)).find(event => event.includes('functionCall'))!).candidates[0].content.parts;
    const replayed = bodyOf(turns[1]!).contents.at(-2)!;
    expect(replayed.role).toBe('model');
    expect(replayed.parts).toContainEqual(expect.objectContaining({ functionCall: expect.objectContaining({ name: 'read_file', id: call.functionCall.id }), thoughtSignature: call.thoughtSignature }));
    expect(bodyOf(turns[1]!).contents.at(-1)!.parts).toEqual([
      { functionResponse: expect.objectContaining({ id: call.functionCall.id, name: 'read_file', response: { output: `${FILE_CONTENT}\n` } }) },
    ]);
  });
});
