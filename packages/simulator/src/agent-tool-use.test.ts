import { createSimulator, type Simulator } from './create-simulator';
import { parseSSEJson } from './testing/parse-sse-text';
import { ANTHROPIC_HEADERS, postJson } from './testing/post-json';

/** A tool in no protocol's shape; each protocol case below wraps it the way its API declares tools. */
type NeutralTool = { name: string; description: string; schema: Record<string, unknown> };

/** One observed tool call, whatever the protocol. */
type ObservedCall = { id: string; name: string; input: unknown };

/** What a test reads from one answer, whatever the protocol. */
type ObservedAnswer = { calls: ObservedCall[]; text: string; stop: string };

type AgentCase = {
  name: 'responses' | 'messages' | 'chat';
  path: string;
  headers: Record<string, string>;
  body(prompt: string, tools: readonly NeutralTool[], stream: boolean): Record<string, unknown>;
  /** The same conversation after the model's call and the tool's result. */
  followUp(prompt: string, tools: readonly NeutralTool[], call: ObservedCall, result: string): Record<string, unknown>;
  readJson(body: Record<string, unknown>): ObservedAnswer;
  readStream(payloads: ReadonlyArray<Record<string, unknown>>): ObservedAnswer;
  toolUseStop: string;
  normalStop: string;
  /** The protocol's `tool_choice` that requires some tool call. */
  requiredChoice: unknown;
};

const searchTool: NeutralTool = {
  name: 'search_files',
  description: 'Search the workspace for files',
  schema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 3 },
      limit: { type: 'integer', minimum: 5 },
      recursive: { type: 'boolean' },
      mode: { type: 'string', enum: ['fast', 'deep'] },
      paths: { type: 'array', items: { type: 'string' } },
      options: { type: 'object', properties: { depth: { type: 'number' } }, required: ['depth'], additionalProperties: false },
    },
    required: ['query', 'limit', 'options'],
    additionalProperties: false,
  },
};
const weatherTool: NeutralTool = {
  name: 'get_weather',
  description: 'Current weather forecast for a city',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};
const clockTool: NeutralTool = {
  name: 'read_clock',
  description: 'The time of day in a time zone',
  schema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
};
const TOOLS = [clockTool, weatherTool, searchTool];

/** A coding agent's file reader and shell, declared as Claude Code declares its Read and Bash tools. */
const readTool: NeutralTool = {
  name: 'Read',
  description: 'Reads a file from the local filesystem.\n\nUsage notes…',
  schema: {
    type: 'object',
    properties: { file_path: { type: 'string', description: 'The absolute path to the file to read' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
    required: ['file_path'],
  },
};
const bashTool: NeutralTool = {
  name: 'Bash',
  description: 'Executes a given bash command and returns its output.\n\nUsage notes…',
  schema: {
    type: 'object',
    properties: { command: { type: 'string' }, timeout: { type: 'number' }, description: { type: 'string' } },
    required: ['command'],
  },
};
/** A shell tool whose command is an argv, as Codex's `shell` tool declares it. */
const argvShellTool: NeutralTool = {
  name: 'shell',
  description: 'Runs a shell command and returns its output.',
  schema: {
    type: 'object',
    properties: { command: { type: 'array', items: { type: 'string' } }, workdir: { type: 'string' } },
    required: ['command'],
  },
};
const AGENT_TOOLS = [weatherTool, bashTool, readTool];

/** Arguments the schema of `search_files` allows, filled from the prompt below (last word first). */
const SEARCH_PROMPT = 'Please use the search_files tool to find notes';
const SEARCH_ARGUMENTS = { query: 'notes', limit: 5, recursive: true, mode: 'fast', paths: ['find'], options: { depth: 1 } };

function records(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
}

const AGENT_CASES: readonly AgentCase[] = [
  {
    name: 'responses',
    path: '/v1/responses',
    headers: {},
    body: (prompt, tools, stream) => ({
      model: 'sim-1',
      input: [{ role: 'user', content: prompt }],
      tools: tools.map(tool => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.schema, strict: false })),
      stream,
    }),
    followUp: (prompt, tools, call, result) => ({
      model: 'sim-1',
      input: [
        { role: 'user', content: prompt },
        { type: 'function_call', call_id: call.id, name: call.name, arguments: JSON.stringify(call.input) },
        { type: 'function_call_output', call_id: call.id, output: result },
      ],
      tools: tools.map(tool => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.schema, strict: false })),
    }),
    readJson: body => readResponsesOutput(records(body.output), String(body.status)),
    readStream: payloads => {
      const done = payloads.find(payload => payload.type === 'response.completed');
      const response = (done?.response ?? {}) as Record<string, unknown>;
      const streamedArguments = payloads
        .filter(payload => payload.type === 'response.function_call_arguments.delta')
        .map(payload => String(payload.delta))
        .join('');
      const answer = readResponsesOutput(records(response.output), String(response.status));
      expect(JSON.parse(streamedArguments === '' ? 'null' : streamedArguments)).toEqual(answer.calls[0]?.input ?? null);
      return answer;
    },
    toolUseStop: 'completed',
    normalStop: 'completed',
    requiredChoice: 'required',
  },
  {
    name: 'messages',
    path: '/v1/messages',
    headers: ANTHROPIC_HEADERS,
    body: (prompt, tools, stream) => ({
      model: 'sim-1',
      max_tokens: 1024,
      messages: [{ role: 'user', content: prompt }],
      tools: tools.map(tool => ({ name: tool.name, description: tool.description, input_schema: tool.schema })),
      stream,
    }),
    followUp: (prompt, tools, call, result) => ({
      model: 'sim-1',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: prompt },
        { role: 'assistant', content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: result }] },
      ],
      tools: tools.map(tool => ({ name: tool.name, description: tool.description, input_schema: tool.schema })),
    }),
    readJson: body => ({
      calls: records(body.content)
        .filter(block => block.type === 'tool_use')
        .map(block => ({ id: String(block.id), name: String(block.name), input: block.input })),
      text: records(body.content)
        .filter(block => block.type === 'text')
        .map(block => String(block.text))
        .join(''),
      stop: String(body.stop_reason),
    }),
    readStream: payloads => {
      const calls: ObservedCall[] = [];
      let text = '';
      let partial = '';
      for (const payload of payloads) {
        const block = payload.content_block as Record<string, unknown> | undefined;
        const delta = payload.delta as Record<string, unknown> | undefined;
        if (payload.type === 'content_block_start' && block?.type === 'tool_use') {
          calls.push({ id: String(block.id), name: String(block.name), input: undefined });
          partial = '';
        }
        if (delta?.type === 'input_json_delta') partial += String(delta.partial_json);
        if (delta?.type === 'text_delta') text += String(delta.text);
        if (payload.type === 'content_block_stop' && calls.length > 0 && calls.at(-1)?.input === undefined) {
          (calls.at(-1) as ObservedCall).input = JSON.parse(partial);
        }
      }
      const end = payloads.find(payload => payload.type === 'message_delta')?.delta as Record<string, unknown> | undefined;
      return { calls, text, stop: String(end?.stop_reason) };
    },
    toolUseStop: 'tool_use',
    normalStop: 'end_turn',
    requiredChoice: { type: 'any' },
  },
  {
    name: 'chat',
    path: '/v1/chat/completions',
    headers: {},
    body: (prompt, tools, stream) => ({
      model: 'sim-1',
      messages: [{ role: 'user', content: prompt }],
      tools: tools.map(tool => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.schema } })),
      stream,
    }),
    followUp: (prompt, tools, call, result) => ({
      model: 'sim-1',
      messages: [
        { role: 'user', content: prompt },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }],
        },
        { role: 'tool', tool_call_id: call.id, content: result },
      ],
      tools: tools.map(tool => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.schema } })),
    }),
    readJson: body => {
      const choice = records(body.choices)[0] ?? {};
      const message = (choice.message ?? {}) as Record<string, unknown>;
      return {
        calls: records(message.tool_calls).map(call => {
          const fn = call.function as Record<string, unknown>;
          return { id: String(call.id), name: String(fn.name), input: JSON.parse(String(fn.arguments)) };
        }),
        text: typeof message.content === 'string' ? message.content : '',
        stop: String(choice.finish_reason),
      };
    },
    readStream: payloads => {
      const calls: Array<ObservedCall & { text: string }> = [];
      let text = '';
      let stop = '';
      for (const payload of payloads) {
        const choice = records(payload.choices)[0];
        const delta = (choice?.delta ?? {}) as Record<string, unknown>;
        if (typeof delta.content === 'string') text += delta.content;
        for (const fragment of records(delta.tool_calls)) {
          const fn = (fragment.function ?? {}) as Record<string, unknown>;
          if (typeof fragment.id === 'string') calls.push({ id: fragment.id, name: String(fn.name), input: undefined, text: '' });
          (calls.at(-1) as { text: string }).text += String(fn.arguments ?? '');
        }
        if (typeof choice?.finish_reason === 'string') stop = choice.finish_reason;
      }
      return { calls: calls.map(call => ({ id: call.id, name: call.name, input: JSON.parse(call.text) })), text, stop };
    },
    toolUseStop: 'tool_calls',
    normalStop: 'stop',
    requiredChoice: 'required',
  },
];

function readResponsesOutput(output: ReadonlyArray<Record<string, unknown>>, status: string): ObservedAnswer {
  return {
    calls: output
      .filter(item => item.type === 'function_call')
      .map(item => ({ id: String(item.call_id), name: String(item.name), input: JSON.parse(String(item.arguments)) })),
    text: output
      .filter(item => item.type === 'message')
      .flatMap(item => records(item.content))
      .map(part => String(part.text))
      .join(''),
    stop: status,
  };
}

/** The fresh parts of an answer (response and message ids, timestamps) replaced, so the rest can be compared byte for byte. */
function maskFreshParts(text: string): string {
  return text
    .replace(/\b(resp|msg|rs|fc|req)_[0-9a-f]{24}\b/g, '$1_*')
    .replace(/\bchatcmpl-[0-9a-f]{24}\b/g, 'chatcmpl-*')
    .replace(/"(created|created_at|completed_at)":\d+/g, '"$1":0');
}

describe.each(AGENT_CASES)('the simulated model as an agent backend on $path', agentCase => {
  let simulator: Simulator;
  let url: string;

  beforeAll(async () => {
    simulator = createSimulator();
    ({ url } = await simulator.listen());
  });
  afterAll(() => simulator.close());

  async function ask(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    return postJson(`${url}${agentCase.path}`, body, { ...agentCase.headers, ...headers });
  }

  it('calls the tool the prompt names, with arguments that satisfy its schema, and stops for tool use (JSON)', async () => {
    const answer = await ask(agentCase.body(SEARCH_PROMPT, TOOLS, false));
    expect(answer.status).toBe(200);
    const observed = agentCase.readJson(JSON.parse(answer.text) as Record<string, unknown>);
    expect(observed.calls).toEqual([{ id: expect.stringMatching(/^(call|toolu)_[0-9a-f]{24}$/), name: 'search_files', input: SEARCH_ARGUMENTS }]);
    expect(observed.stop).toBe(agentCase.toolUseStop);
  });

  it('streams the same call, with the same id, and stops for tool use', async () => {
    const json = agentCase.readJson(JSON.parse((await ask(agentCase.body(SEARCH_PROMPT, TOOLS, false))).text) as Record<string, unknown>);
    const answer = await ask(agentCase.body(SEARCH_PROMPT, TOOLS, true));
    expect(answer.status).toBe(200);
    const observed = agentCase.readStream(parseSSEJson(answer.text));
    expect(observed.calls).toEqual(json.calls);
    expect(observed.stop).toBe(agentCase.toolUseStop);
  });

  it('picks a tool by the words of its description when the prompt does not name it', async () => {
    const observed = agentCase.readJson(
      JSON.parse((await ask(agentCase.body("What's the forecast in Oslo", TOOLS, false))).text) as Record<string, unknown>,
    );
    expect(observed.calls.map(call => [call.name, call.input])).toEqual([['get_weather', { city: 'Oslo' }]]);
  });

  it('answers in text, like a model, when tools are offered but the prompt asks for none of them', async () => {
    const observed = agentCase.readJson(JSON.parse((await ask(agentCase.body('Hello there', TOOLS, false))).text) as Record<string, unknown>);
    expect(observed.calls).toEqual([]);
    expect(observed.stop).toBe(agentCase.normalStop);
    expect(observed.text.startsWith('Hello there')).toBe(true);
  });

  it('calls the first tool when tool_choice requires a call and the prompt matches none', async () => {
    const body = { ...agentCase.body('Hello there', TOOLS, false), tool_choice: agentCase.requiredChoice };
    const observed = agentCase.readJson(JSON.parse((await ask(body)).text) as Record<string, unknown>);
    expect(observed.calls.map(call => call.name)).toEqual(['read_clock']);
    expect(observed.stop).toBe(agentCase.toolUseStop);
  });

  it("reads the user's request without an agent's <system-reminder> context blocks, whose words name no tool to call", async () => {
    const reminder = '<system-reminder>\nThe weather forecast tool and the file search are available; read_clock too.\n</system-reminder>\n';
    const observed = agentCase.readJson(JSON.parse((await ask(agentCase.body(`${reminder}Say hello`, TOOLS, false))).text) as Record<string, unknown>);
    expect(observed.calls).toEqual([]);
    expect(observed.text.startsWith('Say hello')).toBe(true);
  });

  it('fills only the required arguments, with the values the prompt quotes in backticks', async () => {
    const prompt = 'Use search_files with `notes/*.md` please';
    const observed = agentCase.readJson(JSON.parse((await ask(agentCase.body(prompt, TOOLS, false))).text) as Record<string, unknown>);
    expect(observed.calls.map(call => [call.name, call.input])).toEqual([['search_files', { query: 'notes/*.md', limit: 5, options: { depth: 1 } }]]);
  });

  it.each([
    ['Read notes.txt and tell me what it says', 'Read', { file_path: 'notes.txt' }],
    ['Read /srv/app/config.yaml, please', 'Read', { file_path: '/srv/app/config.yaml' }],
    ['Read ./docs/guide.md and ../CHANGELOG.md', 'Read', { file_path: './docs/guide.md' }],
    ['Use Bash to run ls -la and tell me what you see', 'Bash', { command: 'ls -la' }],
    ['Run git status', 'Bash', { command: 'git status' }],
    ['Run `cat notes.txt` for me', 'Bash', { command: 'cat notes.txt' }],
    ['Run `ls` in /srv/app', 'Bash', { command: 'ls' }],
    ['Read `my notes.md` please', 'Read', { file_path: 'my notes.md' }],
    ['Please execute the command npm test, then report', 'Bash', { command: 'npm test' }],
  ])('takes the file or command the prompt mentions for the matching argument: %s', async (prompt, name, input) => {
    const observed = agentCase.readJson(JSON.parse((await ask(agentCase.body(prompt, AGENT_TOOLS, false))).text) as Record<string, unknown>);
    expect(observed.calls.map(call => [call.name, call.input])).toEqual([[name, input]]);
    expect(observed.stop).toBe(agentCase.toolUseStop);
  });

  it('gives a shell tool that takes an argv the command as bash -lc', async () => {
    const observed = agentCase.readJson(JSON.parse((await ask(agentCase.body('Run ls -la', [argvShellTool], false))).text) as Record<string, unknown>);
    expect(observed.calls.map(call => [call.name, call.input])).toEqual([['shell', { command: ['bash', '-lc', 'ls -la'] }]]);
  });

  it('falls back to words of the prompt for every property when the prompt mentions nothing the tool takes', async () => {
    const observed = agentCase.readJson(JSON.parse((await ask(agentCase.body('Read the latest news aloud', AGENT_TOOLS, false))).text) as Record<string, unknown>);
    expect(observed.calls.map(call => [call.name, call.input])).toEqual([['Read', { file_path: 'aloud', offset: 1, limit: 1 }]]);
  });

  it('answers a tool result in text that quotes it, with a normal stop, in JSON and in the stream', async () => {
    const result = 'notes/2026-11-24.md: remember the fjord trip and the snow chains';
    const call = { id: 'call_0123456789abcdef01234567', name: 'search_files', input: SEARCH_ARGUMENTS };
    const followUp = agentCase.followUp(SEARCH_PROMPT, TOOLS, call, result);
    const json = agentCase.readJson(JSON.parse((await ask(followUp)).text) as Record<string, unknown>);
    expect(json.calls).toEqual([]);
    expect(json.stop).toBe(agentCase.normalStop);
    expect(json.text.startsWith(`Tool result: ${result.slice(0, 40)}`)).toBe(true);
    expect(json.text).not.toContain(result.slice(0, 41));
    const streamed = agentCase.readStream(parseSSEJson((await ask({ ...followUp, stream: true })).text));
    expect(streamed).toEqual(json);
  });

  it('gives the same bytes for the same request, apart from fresh response ids and timestamps', async () => {
    for (const stream of [false, true]) {
      const first = await ask(agentCase.body(SEARCH_PROMPT, TOOLS, stream));
      const second = await ask(agentCase.body(SEARCH_PROMPT, TOOLS, stream));
      expect(maskFreshParts(second.text)).toBe(maskFreshParts(first.text));
      expect(second.text).toMatch(/"(call_id|id)":"(call|toolu)_[0-9a-f]{24}"/);
    }
  });

  it('gives a later turn of a longer conversation a new call id for the same prompt', async () => {
    const body = agentCase.body(SEARCH_PROMPT, TOOLS, false);
    const key = agentCase.name === 'responses' ? 'input' : 'messages';
    const earlier = [
      { role: 'user', content: 'Earlier question' },
      { role: 'assistant', content: 'Earlier answer' },
    ];
    const longer = { ...body, [key]: [...earlier, ...(body[key] as unknown[])] };
    const first = agentCase.readJson(JSON.parse((await ask(body)).text) as Record<string, unknown>).calls[0];
    const later = agentCase.readJson(JSON.parse((await ask(longer)).text) as Record<string, unknown>).calls[0];
    expect(later?.name).toBe('search_files');
    expect(later?.input).toEqual(first?.input);
    expect(later?.id).not.toBe(first?.id);
  });
});
