import Anthropic from '@anthropic-ai/sdk';
import { createSimulator, type Simulator } from './create-simulator';
import { parseSSEJson, parseSSEText } from './testing/parse-sse-text';
import { ANTHROPIC_HEADERS, postJson } from './testing/post-json';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};
const timeTool = { ...weatherTool, name: 'get_time', description: 'Local time' };
const ask = (text: string) => [{ role: 'user' as const, content: text }];

describe('POST /v1/messages', () => {
  let simulator: Simulator;
  let url: string;
  let client: Anthropic;

  beforeAll(async () => {
    simulator = createSimulator();
    ({ url } = await simulator.listen());
    client = new Anthropic({ apiKey: 'test', baseURL: url, maxRetries: 0 });
  });
  afterAll(() => simulator.close());

  it('answers JSON deterministically with end_turn and the exact usage shape', async () => {
    const first = await client.messages.create({ model: 'sim-1', max_tokens: 1024, messages: ask('Tell me about rivers') });
    const second = await client.messages.create({ model: 'sim-1', max_tokens: 1024, messages: ask('Tell me about rivers') });
    expect(second.content).toEqual(first.content);
    expect(first).toMatchObject({ type: 'message', role: 'assistant', model: 'sim-1', stop_reason: 'end_turn', stop_sequence: null });
    expect(first.id).toMatch(/^msg_/);
    const [block] = first.content;
    expect(block?.type === 'text' && block.text.startsWith('Tell me about')).toBe(true);
    expect(block?.type === 'text' && block.text.split(' ').length).toBeGreaterThanOrEqual(50);
    expect(first.usage).toMatchObject({ input_tokens: 5, output_tokens: 64, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('streams a grammar the SDK accepts, ending in the same message as JSON', async () => {
    const json = await client.messages.create({ model: 'sim-1', max_tokens: 1024, system: 'Be brief.', messages: ask('Stream it') });
    const stream = client.messages.stream({ model: 'sim-1', max_tokens: 1024, system: 'Be brief.', messages: ask('Stream it') });
    const final = await stream.finalMessage();
    expect(final.content.map(block => block.type === 'text' && block.text)).toEqual(json.content.map(block => block.type === 'text' && block.text));
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: json.usage.input_tokens, output_tokens: 64 });
  });

  it('names every event, pings after the first block and reports cumulative usage in message_delta', async () => {
    const raw = await postJson(`${url}/v1/messages`, { model: 'sim-1', max_tokens: 1024, messages: ask('Grammar check'), stream: true }, ANTHROPIC_HEADERS);
    expect(raw.headers.get('content-type')).toBe('text/event-stream');
    expect(raw.headers.get('request-id')).toMatch(/^req_/);
    const events = parseSSEText(raw.text);
    const payloads = parseSSEJson(raw.text);
    expect(events.map(event => event.event)).toEqual(payloads.map(payload => payload.type));
    const types = payloads.map(payload => payload.type);
    expect(types.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(types.filter(type => type === 'content_block_delta')).toHaveLength(64);
    expect(payloads[0]).toMatchObject({ message: { content: [], stop_reason: null, usage: { input_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } });
    expect(payloads.at(-2)).toMatchObject({ delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 64 } });
  });

  it('signals max_tokens in JSON and in the stream', async () => {
    const json = await client.messages.create({ model: 'sim-1', max_tokens: 10, messages: ask('Tell me about rivers') });
    expect(json.stop_reason).toBe('max_tokens');
    expect(json.usage.output_tokens).toBe(10);
    const streamed = await client.messages.stream({ model: 'sim-1', max_tokens: 10, messages: ask('Tell me about rivers') }).finalMessage();
    expect(streamed.stop_reason).toBe('max_tokens');
    expect(streamed.usage.output_tokens).toBe(10);
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'text', text: json.content[0]?.type === 'text' ? json.content[0].text : '' })]);
    const roomy = await client.messages.create({ model: 'sim-1', max_tokens: 64, messages: ask('Tell me about rivers') });
    expect(roomy.stop_reason).toBe('end_turn');
  });

  it('stops at a stop sequence with stop_sequence set', async () => {
    const full = await client.messages.create({ model: 'sim-1', max_tokens: 1024, messages: ask('Tell me about rivers') });
    const fullText = full.content[0]?.type === 'text' ? full.content[0].text : '';
    const stopWord = fullText.split(' ')[6] as string;
    const stopped = await client.messages.stream({ model: 'sim-1', max_tokens: 1024, stop_sequences: [stopWord], messages: ask('Tell me about rivers') }).finalMessage();
    expect(stopped.stop_reason).toBe('stop_sequence');
    expect(stopped.stop_sequence).toBe(stopWord);
    const stoppedText = stopped.content[0]?.type === 'text' ? stopped.content[0].text : '';
    expect(fullText.startsWith(`${stoppedText} ${stopWord}`)).toBe(true);
  });

  it('calls a tool with a toolu_ id after a lead-in, streaming input_json_delta fragments, then reads the result', async () => {
    const json = await client.messages.create({ model: 'sim-1', max_tokens: 1024, tools: [weatherTool], messages: ask('Weather in Oslo') });
    expect(json.stop_reason).toBe('tool_use');
    expect(json.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'I will call get_weather.' }),
      expect.objectContaining({ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'get_weather', input: { city: 'Oslo' } }),
    ]);
    const fragments: string[] = [];
    const stream = client.messages.stream({ model: 'sim-1', max_tokens: 1024, tools: [weatherTool], messages: ask('Weather in Oslo') });
    stream.on('inputJson', partial => fragments.push(partial));
    const final = await stream.finalMessage();
    expect(fragments.length).toBeGreaterThanOrEqual(2);
    expect(final.content[1]).toMatchObject({ type: 'tool_use', input: { city: 'Oslo' } });
    const toolUse = json.content[1] as Anthropic.ToolUseBlock;
    const result = 'It is 3 degrees with light snow over the fjord tonight';
    const followUp = await client.messages.create({
      model: 'sim-1',
      max_tokens: 1024,
      tools: [weatherTool],
      messages: [
        ...ask('Weather in Oslo'),
        { role: 'assistant', content: [{ type: 'tool_use', id: toolUse.id, name: toolUse.name, input: toolUse.input }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: result }] },
      ],
    });
    expect(followUp.stop_reason).toBe('end_turn');
    expect(followUp.content[0]?.type === 'text' && followUp.content[0].text).toContain(result.slice(0, 40));
  });

  it('makes two parallel tool calls, honours tool_choice tool and disable_parallel_tool_use', async () => {
    const parallel = await client.messages.stream({ model: 'sim-1', max_tokens: 1024, tools: [weatherTool, timeTool], messages: ask('Call get_weather and get_time in parallel') }).finalMessage();
    expect(parallel.content.filter(block => block.type === 'tool_use').map(block => block.type === 'tool_use' && block.name)).toEqual(['get_weather', 'get_time']);
    const single = await client.messages.create({
      model: 'sim-1',
      max_tokens: 1024,
      tools: [weatherTool, timeTool],
      tool_choice: { type: 'tool', name: 'get_time', disable_parallel_tool_use: true },
      messages: ask('Call get_weather and get_time in parallel'),
    });
    expect(single.content.filter(block => block.type === 'tool_use').map(block => block.type === 'tool_use' && block.name)).toEqual(['get_time']);
  });

  it('thinks first when thinking is enabled, with thinking_delta fragments and a signature', async () => {
    const body = { model: 'sim-1', max_tokens: 2048, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, messages: ask('Think about it') };
    const json = await client.messages.create(body);
    expect(json.content.map(block => block.type)).toEqual(['thinking', 'text']);
    const thinking = json.content[0] as Anthropic.ThinkingBlock;
    expect(thinking.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(json.usage.output_tokens).toBe(80);
    const deltas: string[] = [];
    let signature = '';
    const stream = client.messages.stream(body);
    stream.on('thinking', delta => deltas.push(delta));
    stream.on('signature', value => (signature = value));
    const final = await stream.finalMessage();
    expect(deltas.length).toBe(16);
    expect(signature).toBe(thinking.signature);
    expect(final.content[0]).toEqual(expect.objectContaining({ type: 'thinking', thinking: thinking.thinking, signature: thinking.signature }));
    const adaptive = await client.messages.create({ ...body, thinking: { type: 'adaptive' } });
    expect(adaptive.content[0]?.type).toBe('thinking');
  });
});
