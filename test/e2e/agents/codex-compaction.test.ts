import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDefaultConfig } from '../../../examples/server/src';
import { startTestGateway, type TestGateway } from '../../helpers/start-test-gateway';
import {
  createAgentSandbox,
  isolatedEnvironment,
  runCli,
  startEgressTrap,
  startRecordingProxy,
  type AgentSandbox,
  type EgressTrap,
  type RecordedExchange,
  type RecordingProxy,
} from './agent-sandbox';
import { CODEX, CODEX_ROUTES, codexConfig, completedItems, expectCompletedTurn } from './codex-cli';

/**
 * Codex's automatic compaction through the example server, with the real Codex CLI
 * (`@openai/codex` 0.169.0, pinned in devDependencies, unmodified), on every default route.
 *
 * What Codex 0.169 does, read from its requests: when the conversation's token count reaches
 * `model_auto_compact_token_limit`, it compacts before sampling again, in one of two ways.
 * - Remote compaction, only for a provider whose `name` is "OpenAI" (Codex's test for the OpenAI
 *   provider is its display name, so a custom provider block pointed at the gateway qualifies) or an
 *   Azure Responses endpoint: an ordinary streamed `POST /v1/responses` whose input ends with
 *   `{"type":"compaction_trigger"}`, answered with one `compaction` item, which the next request
 *   carries in place of the history it summarises. Codex 0.169 no longer calls
 *   `POST /v1/responses/compact` (its `remote_compaction_v2` feature is listed as removed: v2 is
 *   the only remote way).
 * - Local compaction, for every other provider: an ordinary `POST /v1/responses` without tools whose
 *   last user message asks the model for a hand-off summary, whose answer Codex then sends back as
 *   a user message in place of the history.
 *
 * How the test gets there: the first run (`codex exec`) reads a long file with the shell tool, so
 * the conversation ends above the limit; the second run resumes that session (`codex exec resume`)
 * with `model_auto_compact_token_limit` lowered to fall between the compacted and the full
 * conversation, so Codex compacts once, at the start of the resumed turn, and that turn (another
 * shell round trip, on a file that has meanwhile shrunk) completes under the limit. Compacting in
 * the middle of the first turn would never end against the simulator: it answers from the user's
 * request, not from a summary, so after every compaction it would call the same tool again.
 *
 * Two recording proxies show both sides: one between Codex and the gateway (Codex's bodies and the
 * gateway's answers), one between the gateway and the simulator (what reached the model; the
 * simulator's own log keeps no bodies). Offline: CODEX_HOME, HOME and TMPDIR are a throwaway
 * sandbox, and a proxy on 127.0.0.1 catches anything Codex would send beyond loopback.
 */

/** A CLI run that has not ended after this long is killed; a test runs two. */
const RUN_TIMEOUT_MS = 20_000;
jest.setTimeout(2 * RUN_TIMEOUT_MS + 5_000);
/**
 * The simulator counts a token per four characters. Codex's own instructions and tools make about
 * 5,000 tokens; reading the long file adds about 2,500 (Codex caps a command's output at that), so
 * the first run ends near 7,600 and a compacted conversation starts near 5,200.
 */
const COMPACT_TOKEN_LIMIT = 6_500;
const LONG_FILE = Array.from({ length: 400 }, (_, index) => `line ${index}: the harbour crane lifts container ${index} onto the quay\n`).join('');
const SHORT_FILE = 'manifest closed: every container is on the quay\n';
const FIRST_PROMPT = 'Use exec_command to run `cat manifest.txt`';
const SECOND_PROMPT = 'Use exec_command to run `cat manifest.txt` once more';
/** What the gateway puts in place of an opened compaction item (README, "Remote compaction"). */
const SUMMARY_PREFIX = 'Summary of the earlier conversation: ';
/** The start of the summary request Codex writes for a local compaction. */
const LOCAL_COMPACTION_PROMPT = 'You are performing a CONTEXT CHECKPOINT COMPACTION.';
/** The start of the user message that carries a local compaction's summary afterwards. */
const LOCAL_SUMMARY_PREFIX = 'Another language model started to solve this problem and produced a summary of its thinking process.';

type InputItem = Record<string, unknown> & { type?: string; role?: string };
type SentRequest = { body: Record<string, unknown>; input: InputItem[]; metadata: Record<string, unknown>; exchange: RecordedExchange };

describe('Codex CLI compaction (codex exec, then codex exec resume over model_auto_compact_token_limit) through the example server', () => {
  let server: TestGateway;
  let trap: EgressTrap;
  let sandbox: AgentSandbox;
  let client: RecordingProxy;
  let upstream: RecordingProxy;

  beforeAll(async () => {
    sandbox = createAgentSandbox('signalbox-codex-compaction-');
    upstream = await startRecordingProxy();
    const configPath = join(sandbox.root, 'gateway.json');
    writeFileSync(configPath, JSON.stringify(createDefaultConfig(upstream.url)));
    server = await startTestGateway({ configPath });
    upstream.retarget(server.simulatorURL);
    client = await startRecordingProxy(server.url);
    trap = await startEgressTrap();
  });
  afterAll(async () => {
    await client.close();
    await upstream.close();
    await trap.close();
    await server.close(1_000);
    sandbox.remove();
  });
  // Nothing left loopback: every attempt the CLI made to reach another host is listed here.
  afterEach(() => expect(trap.attempts.splice(0)).toEqual([]));

  async function codex(args: readonly string[], config: string) {
    writeFileSync(join(sandbox.config, 'config.toml'), config);
    const sentBefore = client.exchanges.length;
    const upstreamBefore = upstream.exchanges.length;
    const run = await runCli(process.execPath, [CODEX, 'exec', '--json', '--skip-git-repo-check', ...args], {
      cwd: sandbox.cwd,
      timeoutMs: RUN_TIMEOUT_MS,
      env: { ...isolatedEnvironment(sandbox, trap), CODEX_HOME: sandbox.config, SIGNALBOX_API_KEY: server.demoKey },
    });
    return { run, sent: client.exchanges.slice(sentBefore), upstream: upstream.exchanges.slice(upstreamBefore) };
  }

  /** The first run: a shell round trip on the long file, ended above the limit; returns the session id. */
  async function longSession(model: string, providerName: string): Promise<string> {
    writeFileSync(join(sandbox.cwd, 'manifest.txt'), LONG_FILE);
    const { run, sent } = await codex([FIRST_PROMPT], codexConfig({ model, baseURL: client.url, providerName }));
    expectCompletedTurn(run);
    expect(completedItems(run, 'command_execution')).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0 })]);
    expect(sent.map(describeExchange)).toEqual(['POST /v1/responses 200', 'POST /v1/responses 200']);
    // The second request carries the file: its prompt alone is above the limit.
    const completed = sseEvents(sent[1]!.answer).find(event => event.type === 'response.completed');
    expect((completed?.response as { usage: { input_tokens: number } }).usage.input_tokens).toBeGreaterThan(COMPACT_TOKEN_LIMIT);
    writeFileSync(join(sandbox.cwd, 'manifest.txt'), SHORT_FILE);
    const thread = run.events.find(event => event.type === 'thread.started')?.thread_id;
    expect(typeof thread).toBe('string');
    return String(thread);
  }

  function resume(model: string, providerName: string, thread: string) {
    const args = ['-c', `model_auto_compact_token_limit=${COMPACT_TOKEN_LIMIT}`, 'resume', thread, SECOND_PROMPT];
    return codex(args, codexConfig({ model, baseURL: client.url, providerName }));
  }

  it.each(CODEX_ROUTES)(
    'compacts remotely on $model with a provider named "OpenAI": a compaction_trigger request gets one sealed compaction item (200), the next request carries it, the upstream gets its summary, and the turn completes',
    async route => {
      const thread = await longSession(route.model, 'OpenAI');
      const { run, sent, upstream: reached } = await resume(route.model, 'OpenAI', thread);
      expectCompletedTurn(run);
      expect(sent.map(describeExchange)).toEqual(['POST /v1/responses 200', 'POST /v1/responses 200', 'POST /v1/responses 200']);
      const [compaction, carried, afterTool] = sent.map(readRequest) as [SentRequest, SentRequest, SentRequest];
      expect(compaction.metadata).toEqual(
        expect.objectContaining({ request_kind: 'compaction', compaction: expect.objectContaining({ implementation: 'responses_compaction_v2', phase: 'pre_turn' }) }),
      );

      // The trigger closes the whole first session, tool round trip included.
      expect(compaction.input.at(-1)).toEqual({ type: 'compaction_trigger' });
      expect(compaction.input.map(item => item.type)).toEqual(expect.arrayContaining(['function_call', 'function_call_output']));
      const done = sseEvents(compaction.exchange.answer).filter(event => event.type === 'response.output_item.done');
      expect(done).toHaveLength(1);
      const item = done[0]!.item as { type: string; id: string; encrypted_content: string };
      expect(item).toEqual({ type: 'compaction', id: expect.stringMatching(/^cmp_/), encrypted_content: expect.stringMatching(/^sy1\./) });
      const completed = sseEvents(compaction.exchange.answer).find(event => event.type === 'response.completed');
      expect((completed?.response as { output: unknown[] }).output).toEqual([item]);

      // The next request has the compaction item in place of the history it summarises.
      expect(carried.input.filter(entry => entry.type === 'compaction')).toEqual([expect.objectContaining(item)]);
      expect(carried.input.some(entry => entry.type === 'function_call' || entry.type === 'compaction_trigger')).toBe(false);
      expect(lastUserText(carried.input)).toBe(SECOND_PROMPT);
      expect(afterTool.input.at(-1)).toEqual(expect.objectContaining({ type: 'function_call_output' }));

      // Upstream: the summary call (no stream, the first session's transcript), then the turn with that summary.
      expect(reached.map(exchange => `${exchange.url} ${exchange.status}`)).toEqual([200, 200, 200].map(status => `${route.upstreamPath} ${status}`));
      const summaryCall = JSON.parse(reached[0]!.body.toString()) as Record<string, unknown>;
      expect(summaryCall.stream).not.toBe(true);
      expect(summaryCall.tools).toBeUndefined();
      expect(reached[0]!.body.toString()).toContain('line 0: the harbour crane lifts container 0 onto the quay');
      const summary = answerText(route.upstreamPath, reached[0]!.answer);
      expect(summary.length).toBeGreaterThan(0);
      const continued = reached[1]!.body.toString();
      expect(continued).toContain(JSON.stringify(`${SUMMARY_PREFIX}${summary}`).slice(1, -1));
      expect(continued).not.toContain(item.encrypted_content);
      expect(continued).not.toContain('"compaction"');
      expect(continued).not.toContain('harbour crane');

      expect(completedItems(run, 'command_execution')).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, aggregated_output: SHORT_FILE })]);
      expect(completedItems(run, 'agent_message').map(message => String(message.text))).toEqual(['I will call exec_command.', expect.stringContaining(SHORT_FILE.slice(0, 30))]);
    },
  );

  it.each(CODEX_ROUTES)(
    'compacts locally on $model with a provider of any other name: an ordinary tool-less request asks for the summary, the next request carries the gateway’s answer as the summary, and the turn completes',
    async route => {
      const thread = await longSession(route.model, 'Signalbox');
      const { run, sent, upstream: reached } = await resume(route.model, 'Signalbox', thread);
      expectCompletedTurn(run);
      expect(sent.map(describeExchange)).toEqual(['POST /v1/responses 200', 'POST /v1/responses 200', 'POST /v1/responses 200']);
      const [compaction, carried] = sent.map(readRequest) as [SentRequest, SentRequest, SentRequest];
      expect(compaction.metadata).toEqual(
        expect.objectContaining({ request_kind: 'compaction', compaction: expect.objectContaining({ implementation: 'responses', phase: 'pre_turn' }) }),
      );
      expect(compaction.body.tools).toEqual([]);
      expect(lastUserText(compaction.input).startsWith(LOCAL_COMPACTION_PROMPT)).toBe(true);
      expect(compaction.input.map(item => item.type)).toEqual(expect.arrayContaining(['function_call', 'function_call_output']));
      for (const request of [compaction, carried]) expect(request.input.some(item => item.type === 'compaction' || item.type === 'compaction_trigger')).toBe(false);

      // The gateway's streamed answer is the summary Codex carries on, as a user message.
      const summary = streamedText(compaction.exchange.answer);
      expect(summary.length).toBeGreaterThan(0);
      const carriedTexts = carried.input.filter(item => item.role === 'user').map(messageText);
      expect(carriedTexts).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${escapeRegExp(LOCAL_SUMMARY_PREFIX)}[\\s\\S]*${escapeRegExp(summary)}$`))]));
      expect(carried.input.some(item => item.type === 'function_call')).toBe(false);
      expect(lastUserText(carried.input)).toBe(SECOND_PROMPT);

      expect(reached.map(exchange => `${exchange.url} ${exchange.status}`)).toEqual([200, 200, 200].map(status => `${route.upstreamPath} ${status}`));
      expect(reached[1]!.body.toString()).toContain(JSON.stringify(summary).slice(1, -1));
      expect(completedItems(run, 'command_execution')).toEqual([expect.objectContaining({ status: 'completed', exit_code: 0, aggregated_output: SHORT_FILE })]);
    },
  );
});

function describeExchange(exchange: RecordedExchange): string {
  return `${exchange.method} ${exchange.url} ${exchange.status}`;
}

/** Codex's request body, its input items and the turn metadata it sends along in `client_metadata`. */
function readRequest(exchange: RecordedExchange): SentRequest {
  const body = JSON.parse(exchange.body.toString()) as Record<string, unknown>;
  const clientMetadata = body.client_metadata as Record<string, string>;
  return { body, input: body.input as InputItem[], metadata: JSON.parse(clientMetadata['x-codex-turn-metadata'] ?? '{}'), exchange };
}

function messageText(item: InputItem): string {
  const content = item.content as Array<{ text?: string }> | string;
  return typeof content === 'string' ? content : content.map(part => part.text ?? '').join('');
}

function lastUserText(input: readonly InputItem[]): string {
  const last = input.filter(item => item.type === 'message' && item.role === 'user').at(-1);
  return last === undefined ? '' : messageText(last);
}

function sseEvents(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter(line => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map(line => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

/** The text of a streamed Responses answer, from its `response.output_text.done` events. */
function streamedText(text: string): string {
  return sseEvents(text)
    .filter(event => event.type === 'response.output_text.done')
    .map(event => String(event.text))
    .join('');
}

/** The text of an upstream's non-streaming answer, in the shape of the protocol at `path`. */
function answerText(path: string, answer: string): string {
  const body = JSON.parse(answer) as Record<string, unknown>;
  if (path === '/v1/messages') return (body.content as Array<{ type: string; text?: string }>).map(part => part.text ?? '').join('');
  if (path === '/v1/chat/completions') return String((body.choices as Array<{ message: { content: string } }>)[0]!.message.content);
  return (body.output as Array<{ type: string; content?: Array<{ text?: string }> }>)
    .filter(item => item.type === 'message')
    .flatMap(item => item.content ?? [])
    .map(part => part.text ?? '')
    .join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
