import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listMemberPaths } from '@signalbox/core/testing';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';
import { authHeaders, postForSSE } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

type Body = Record<string, unknown>;

// Claude Code's second request of a Read round trip, captured on loopback (provenance in the README beside it).
const claudeCode = JSON.parse(
  readFileSync(join(__dirname, '../../packages/codec-anthropic-messages/src/__fixtures__/claude-code-tool-loop.1.request.json'), 'utf8'),
) as Body;
const CLAUDE_CODE_BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27';
const assistantTurn = (claudeCode.messages as Body[])[2]!.content as Body[];
const signature = String(assistantTurn[0]!.signature);

const sse = (data: Body) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
const usage = { input_tokens: 30, output_tokens: 9 };
const message = { id: 'msg_01SyntheticCache', type: 'message', role: 'assistant', model: 'claude-upstream', stop_sequence: null };

/** Upstream `a` streams Claude Code's first answer as the simulator did: signed thinking, text, the Read call. */
const thinkingToolStream = [
  sse({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } }),
  sse({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: assistantTurn[0]!.thinking } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } }),
  sse({ type: 'content_block_stop', index: 0 }),
  sse({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
  sse({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: assistantTurn[1]!.text } }),
  sse({ type: 'content_block_stop', index: 1 }),
  sse({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: assistantTurn[2]!.id, name: 'Read', input: {} } }),
  sse({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: JSON.stringify(assistantTurn[2]!.input) } }),
  sse({ type: 'content_block_stop', index: 2 }),
  sse({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage }),
  sse({ type: 'message_stop' }),
].join('');
const textStream = [
  sse({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } }),
  sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'It says hello notes.' } }),
  sse({ type: 'content_block_stop', index: 0 }),
  sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage }),
  sse({ type: 'message_stop' }),
].join('');

/** Each upstream's answer by the path it is called on: `a` signs its thinking, the others answer plain text. */
function answer(path: string, body: Body, response: ServerResponse): void {
  if (path.endsWith('/v1/messages')) {
    if (body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(path.startsWith('/a/') ? thinkingToolStream : textStream);
      return;
    }
    const content = [{ type: 'text', text: 'Cached.' }];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...message, content, stop_reason: 'end_turn', usage }));
    return;
  }
  const json = path.endsWith('/chat/completions')
    ? { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-upstream', choices: [{ index: 0, message: { role: 'assistant', content: 'Cached.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 } }
    : {
        id: 'resp_upstream',
        object: 'response',
        created_at: 1,
        status: 'completed',
        model: 'gpt-upstream',
        output: [{ type: 'message', id: 'msg_upstream', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Cached.', annotations: [] }] }],
        usage: { input_tokens: 30, output_tokens: 9, total_tokens: 39 },
      };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
}

describe('prompt caches across every bridge, through the gateway to upstreams on loopback', () => {
  let upstream: LoopbackServer;
  let gateway: TestGateway;
  let directory: string;
  const received: Array<{ path: string; body: Body }> = [];

  beforeAll(async () => {
    upstream = await listenOnLoopback((request: IncomingMessage, response: ServerResponse) => {
      let text = '';
      request.on('data', chunk => (text += chunk));
      request.on('end', () => {
        const body = JSON.parse(text) as Body;
        received.push({ path: request.url ?? '', body });
        answer(request.url ?? '', body, response);
      });
    });
    directory = mkdtempSync(join(tmpdir(), 'signalbox-prompt-cache-'));
    const everyInterface = ['responses', 'messages', 'chat'];
    writeFileSync(
      join(directory, 'gateway.json'),
      JSON.stringify({
        upstreams: {
          a: { protocol: 'anthropic-messages', baseURL: `${upstream.url}/a` },
          b: { protocol: 'anthropic-messages', baseURL: `${upstream.url}/b` },
          chat: { protocol: 'openai-chat', baseURL: `${upstream.url}/chat/v1` },
          responses: { protocol: 'openai-responses', baseURL: `${upstream.url}/responses/v1` },
        },
        routes: [
          { model: 'cached', interfaces: everyInterface, targets: [{ upstream: 'a', model: 'claude-a' }], promptCache: 'auto' },
          { model: 'as-marked', interfaces: everyInterface, targets: [{ upstream: 'a', model: 'claude-a' }] },
          { model: 'on-a', interfaces: ['messages'], targets: [{ upstream: 'a', model: 'claude-a' }] },
          { model: 'on-b', interfaces: ['messages'], targets: [{ upstream: 'b', model: 'claude-b' }] },
          { model: 'via-chat', interfaces: ['responses'], targets: [{ upstream: 'chat', model: 'gpt-chat' }] },
          { model: 'via-responses', interfaces: ['chat'], targets: [{ upstream: 'responses', model: 'gpt-responses' }] },
        ],
      }),
    );
    gateway = await startTestGateway({ configPath: join(directory, 'gateway.json') });
  });
  afterAll(async () => {
    await gateway.close(1_000);
    await upstream.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** Sends one body on an interface; returns the gateway's answer and what the upstream received. */
  async function send(path: string, headers: Record<string, string>, body: Body) {
    const before = received.length;
    const answered = await postForSSE(`${gateway.url}${path}`, headers, body);
    expect(answered.status).toBe(200);
    expect(received.length).toBe(before + 1);
    return { answered, upstream: received.at(-1)! };
  }
  const messages = (body: Body, extra: Record<string, string> = {}) => send('/v1/messages', { ...authHeaders.messages(gateway.demoKey), ...extra }, body);
  const responses = (body: Body) => send('/v1/responses', authHeaders.responses(gateway.demoKey), body);
  const chat = (body: Body) => send('/v1/chat/completions', authHeaders.chat(gateway.demoKey), body);
  const breakpoints = (body: Body) => listMemberPaths(body, 'cache_control').sort();

  describe('promptCache: auto on a route to a Messages upstream', () => {
    it('marks the tools, the system prompt and the last two inputs of a Responses client', async () => {
      const { upstream: call } = await responses({
        model: 'cached',
        instructions: 'You are a terse assistant.',
        tools: [{ type: 'function', name: 'read', parameters: { type: 'object', properties: {} } }],
        input: [
          { role: 'user', content: 'Read a.txt' },
          { role: 'assistant', content: 'It says hello.' },
          { role: 'user', content: 'And b.txt?' },
        ],
      });
      expect(call.path).toBe('/a/v1/messages');
      expect(breakpoints(call.body)).toEqual(['messages.0.content.0', 'messages.2.content.0', 'system.0', 'tools.0']);
      expect((call.body.messages as Body[])[2]).toEqual({ role: 'user', content: [{ type: 'text', text: 'And b.txt?', cache_control: { type: 'ephemeral' } }] });
    });

    it('marks the tools, the system prompt and the last two inputs of a Chat client, tool results included', async () => {
      const { upstream: call } = await chat({
        model: 'cached',
        messages: [
          { role: 'system', content: 'You are a terse assistant.' },
          { role: 'user', content: 'Read a.txt' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
        ],
        tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }],
      });
      expect(breakpoints(call.body)).toEqual(['messages.0.content.0', 'messages.2.content.0', 'system.0', 'tools.0']);
      expect((call.body.messages as Body[])[2]).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', cache_control: { type: 'ephemeral' } }] });
    });

    it('marks a Messages client’s body that has no breakpoint, forwarded otherwise as sent', async () => {
      const body = {
        model: 'cached',
        max_tokens: 64,
        system: 'You are a terse assistant.',
        messages: [{ role: 'user', content: 'Hi' }],
        brand_new_field: { kept: true },
      };
      const { upstream: call } = await messages(body);
      expect(call.body).toEqual({
        ...body,
        model: 'claude-a',
        system: [{ type: 'text', text: 'You are a terse assistant.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }],
      });
    });

    it('forwards Claude Code’s own breakpoints untouched, with nothing added', async () => {
      const { upstream: call } = await messages({ ...claudeCode, model: 'cached' }, { 'anthropic-beta': CLAUDE_CODE_BETAS });
      expect(call.body).toEqual({ ...claudeCode, model: 'claude-a' });
      expect(breakpoints(call.body)).toEqual(['messages.3.content.0', 'system.1', 'system.2']);
    });

    it('adds nothing on a route without it', async () => {
      const { upstream: call } = await responses({ model: 'as-marked', instructions: 'Be terse.', input: 'Hi' });
      expect(breakpoints(call.body)).toEqual([]);
    });
  });

  describe('prompt_cache_key', () => {
    it('reaches a Chat upstream from a Responses client', async () => {
      const { upstream: call, answered } = await responses({ model: 'via-chat', input: 'Hi', prompt_cache_key: 'codex-thread-42' });
      expect(call.path).toBe('/chat/v1/chat/completions');
      expect(call.body.prompt_cache_key).toBe('codex-thread-42');
      expect(answered.headers.get('x-signalbox-warnings')).toBeNull();
    });

    it('reaches a Responses upstream from a Chat client', async () => {
      const { upstream: call, answered } = await chat({ model: 'via-responses', messages: [{ role: 'user', content: 'Hi' }], prompt_cache_key: 'chat-thread-7' });
      expect(call.path).toBe('/responses/v1/responses');
      expect(call.body.prompt_cache_key).toBe('chat-thread-7');
      expect(answered.headers.get('x-signalbox-warnings')).toBeNull();
    });
  });

  describe('Claude Code’s signed thinking when its conversation moves', () => {
    it('reaches upstream b as assistant text once a signed it, and a as it was sent', async () => {
      // The first turn, answered by a: the gateway passes a's signature on to the client.
      const first = { ...claudeCode, model: 'on-a', messages: (claudeCode.messages as Body[]).slice(0, 2) };
      const { answered } = await messages(first, { 'anthropic-beta': CLAUDE_CODE_BETAS });
      expect(answered.text).toContain(signature);

      const moved = await messages({ ...claudeCode, model: 'on-b' }, { 'anthropic-beta': CLAUDE_CODE_BETAS });
      expect(moved.upstream.path).toBe('/b/v1/messages');
      expect(JSON.stringify(moved.upstream.body)).not.toContain(signature);
      expect((moved.upstream.body.messages as Body[]).find(turn => turn.role === 'assistant')!.content).toEqual([
        { type: 'text', text: assistantTurn[0]!.thinking },
        { type: 'text', text: assistantTurn[1]!.text },
        { type: 'tool_use', id: assistantTurn[2]!.id, name: 'Read', input: assistantTurn[2]!.input },
      ]);
      expect(moved.upstream.body.thinking).toBeUndefined();
      expect(breakpoints(moved.upstream.body)).toEqual(['messages.2.content.0', 'system.1', 'system.2']);
      expect(moved.answered.headers.get('x-signalbox-warnings')).toContain('messages.reasoning (lossy-conversion)');
      expect(moved.answered.text).toContain('It says hello notes.');

      const stayed = await messages({ ...claudeCode, model: 'on-a' }, { 'anthropic-beta': CLAUDE_CODE_BETAS });
      expect(stayed.upstream.body).toEqual({ ...claudeCode, model: 'claude-a' });
      expect(stayed.answered.headers.get('x-signalbox-warnings') ?? '').not.toContain('messages.reasoning');
    });
  });
});
