import { request as httpRequest } from 'node:http';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { createSimulator, type Simulator } from './create-simulator';
import { ANTHROPIC_HEADERS } from './testing/post-json';

/** What coding agents send that a plain SDK call does not: the simulator must take it like the vendor does. */
describe('the simulator taking coding agents’ request shapes directly', () => {
  let simulator: Simulator;
  let url: string;

  beforeAll(async () => {
    simulator = createSimulator({ maxBodyBytes: 64 * 1024 });
    ({ url } = await simulator.listen());
  });
  afterAll(() => simulator.close());

  async function post(path: string, body: Buffer | string, headers: Record<string, string>) {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  const codexBody = {
    model: 'sim-1',
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/work</cwd>\n</environment_context>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Use spawn_agent to look around' }] },
    ],
    tools: [
      { type: 'function', name: 'exec_command', description: 'Runs a command in a PTY.', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } },
      {
        type: 'namespace',
        name: 'multi_agent_v1',
        description: 'Tools for spawning and managing sub-agents.',
        tools: [{ type: 'function', name: 'spawn_agent', description: 'Spawns a sub-agent.', parameters: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] } }],
      },
      { type: 'custom', name: 'apply_patch', description: 'Applies a patch.', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
      { type: 'web_search' },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'thread-1',
    client_metadata: { 'x-codex-window-id': 'thread-1:0' },
  };

  it('answers a Codex-shaped body sent zstd-compressed, calling a function of a namespace tool under its namespace', async () => {
    const answer = await post('/v1/responses', zstdCompressSync(Buffer.from(JSON.stringify(codexBody))), { 'content-encoding': 'zstd' });
    expect(answer.status).toBe(200);
    const calls = (answer.json.output as Array<Record<string, unknown>>).filter(item => item.type === 'function_call');
    expect(calls).toEqual([expect.objectContaining({ name: 'spawn_agent', namespace: 'multi_agent_v1' })]);
  });

  it('answers the result of a custom tool call from its content', async () => {
    const body = {
      ...codexBody,
      input: [
        ...codexBody.input,
        { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: 'Patch applied to notes.txt' },
      ],
    };
    const answer = await post('/v1/responses', gzipSync(Buffer.from(JSON.stringify(body))), { 'content-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    const message = (answer.json.output as Array<Record<string, unknown>>).find(item => item.type === 'message');
    expect(JSON.stringify(message)).toContain('Tool result: Patch applied to notes.txt');
  });

  it('answers a Claude-Code-shaped body: system turn inside messages, cache_control, adaptive thinking, context_management', async () => {
    const body = {
      model: 'sim-1',
      max_tokens: 32000,
      system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nRead CLAUDE.md first.\n</system-reminder>\n' }, { type: 'text', text: 'Say hello' }] },
        { role: 'system', content: [{ type: 'text', text: '# Environment\nPrimary working directory: /work' }] },
      ],
      tools: [{ name: 'Read', description: 'Reads a file from the local filesystem.\n\nUsage notes…', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } }],
      metadata: { user_id: 'user-1' },
      thinking: { type: 'adaptive', display: 'updates' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      output_config: { effort: 'high' },
    };
    const answer = await post('/v1/messages?beta=true', JSON.stringify(body), { ...ANTHROPIC_HEADERS, 'anthropic-beta': 'context-management-2025-06-27' });
    expect(answer.status).toBe(200);
    const content = answer.json.content as Array<Record<string, unknown>>;
    expect(content.map(block => block.type)).toEqual(['thinking', 'text']);
    expect(answer.json.stop_reason).toBe('end_turn');
  });

  it('refuses an unknown Content-Encoding with 415 and a zstd bomb beyond the body limit with 413', async () => {
    const unknown = await post('/v1/responses', JSON.stringify(codexBody), { 'content-encoding': 'compress' });
    expect(unknown.status).toBe(415);
    const bomb = zstdCompressSync(Buffer.alloc(1024 * 1024, 0x20));
    const tooLarge = await post('/v1/responses', bomb, { 'content-encoding': 'zstd' });
    expect(tooLarge.status).toBe(413);
  });

  it('answers a WebSocket upgrade of /v1/responses with 426, so a client falls back to HTTP streaming at once', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(`${url}/v1/responses`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
      request.on('response', response => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('upgrade', () => resolve(101));
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(426);
  });
});
