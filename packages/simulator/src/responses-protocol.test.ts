import OpenAI from 'openai';
import { createSimulator, type Simulator } from './create-simulator';
import { parseSSEJson, parseSSEText } from './testing/parse-sse-text';
import { postJson } from './testing/post-json';

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

describe('POST /v1/responses', () => {
  let simulator: Simulator;
  let url: string;
  let client: OpenAI;

  beforeAll(async () => {
    simulator = createSimulator();
    ({ url } = await simulator.listen());
    client = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 });
  });
  afterAll(() => simulator.close());

  it('answers JSON deterministically, with ≥ 50 tokens that echo the prompt and the exact usage shape', async () => {
    const first = await client.responses.create({ model: 'sim-1', input: 'Tell me about rivers' });
    const second = await client.responses.create({ model: 'sim-1', input: 'Tell me about rivers' });
    expect(first.output_text).toBe(second.output_text);
    expect(first.output_text.startsWith('Tell me about')).toBe(true);
    expect(first.output_text.split(' ').length).toBeGreaterThanOrEqual(50);
    expect(first).toMatchObject({ object: 'response', status: 'completed', model: 'sim-1', incomplete_details: null, error: null });
    expect(first.id).toMatch(/^resp_/);
    expect(first.output).toEqual([
      expect.objectContaining({ type: 'message', id: expect.stringMatching(/^msg_/), status: 'completed', role: 'assistant' }),
    ]);
    expect(first.usage).toEqual({
      input_tokens: 5,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 64,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 69,
    });
    const other = await client.responses.create({ model: 'sim-1', input: 'Tell me about mountains' });
    expect(other.output_text).not.toBe(first.output_text);
  });

  it('streams a grammar the SDK accumulator accepts, ending in the same answer as JSON', async () => {
    const json = await client.responses.create({ model: 'sim-1', input: [{ role: 'user', content: 'Stream me something' }] });
    const events: string[] = [];
    const stream = client.responses.stream({ model: 'sim-1', input: [{ role: 'user', content: 'Stream me something' }] });
    stream.on('event', event => events.push(event.type));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(json.output_text);
    expect(final.status).toBe('completed');
    expect(final.usage).toEqual(json.usage);
    expect(events.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(events.filter(type => type === 'response.output_text.delta')).toHaveLength(64);
    expect(events.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('frames every event with an event line equal to its type and numbers them from 0', async () => {
    const raw = await postJson(`${url}/v1/responses`, { model: 'sim-1', input: 'Count the events', stream: true });
    expect(raw.headers.get('content-type')).toBe('text/event-stream');
    expect(raw.headers.get('x-request-id')).toMatch(/^req_/);
    const events = parseSSEText(raw.text);
    const payloads = events.map(event => JSON.parse(event.data) as { type: string; sequence_number: number });
    expect(events.map(event => event.event)).toEqual(payloads.map(payload => payload.type));
    expect(payloads.map(payload => payload.sequence_number)).toEqual(payloads.map((_, index) => index));
  });

  it('signals max_output_tokens as incomplete in JSON and in the stream', async () => {
    const json = await client.responses.create({ model: 'sim-1', input: 'Tell me about rivers', max_output_tokens: 16 });
    expect(json.status).toBe('incomplete');
    expect(json.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(json.usage?.output_tokens).toBe(16);
    expect(json.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    const raw = await postJson(`${url}/v1/responses`, { model: 'sim-1', input: 'Tell me about rivers', max_output_tokens: 16, stream: true });
    const terminal = parseSSEJson(raw.text).at(-1) as { type: string; response: { status: string; incomplete_details: unknown; output: Array<{ content: Array<{ text: string }> }> } };
    expect(terminal.type).toBe('response.incomplete');
    expect(terminal.response.status).toBe('incomplete');
    expect(terminal.response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(terminal.response.output[0]?.content[0]?.text).toBe(json.output_text);
    const roomy = await client.responses.create({ model: 'sim-1', input: 'Tell me about rivers', max_output_tokens: 64 });
    expect(roomy.status).toBe('completed');
  });

  it('calls a function with fc_/call_ ids and streamed argument fragments, then reads the tool result', async () => {
    const input = [{ role: 'user' as const, content: 'What is the weather in Oslo' }];
    const json = await client.responses.create({ model: 'sim-1', input, tools: [weatherTool] });
    const call = json.output.find(item => item.type === 'function_call');
    expect(json.status).toBe('completed');
    expect(json.output[0]).toMatchObject({ type: 'message', content: [expect.objectContaining({ text: 'I will call get_weather.' })] });
    expect(call).toMatchObject({ id: expect.stringMatching(/^fc_/), call_id: expect.stringMatching(/^call_/), name: 'get_weather', status: 'completed' });
    expect(JSON.parse(call?.type === 'function_call' ? call.arguments : '')).toEqual({ city: 'Oslo' });

    const deltas: string[] = [];
    const stream = client.responses.stream({ model: 'sim-1', input, tools: [weatherTool] });
    stream.on('response.function_call_arguments.delta', event => deltas.push(event.delta));
    const final = await stream.finalResponse();
    const streamedCall = final.output.find(item => item.type === 'function_call');
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(streamedCall?.type === 'function_call' && streamedCall.arguments).toBe(deltas.join(''));

    const result = '{"temperature_c":3,"conditions":"light snow over the fjord"}';
    const followUp = await client.responses.create({
      model: 'sim-1',
      tools: [weatherTool],
      input: [
        ...input,
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: result },
      ],
    });
    expect(followUp.output.every(item => item.type === 'message')).toBe(true);
    expect(followUp.output_text).toContain(result.slice(0, 40));
  });

  it('makes two parallel calls when asked and forces the named tool', async () => {
    const timeTool = { ...weatherTool, name: 'get_time', description: 'Local time' };
    const parallel = await client.responses.create({ model: 'sim-1', input: 'Weather and time in parallel', tools: [weatherTool, timeTool] });
    expect(parallel.output.filter(item => item.type === 'function_call').map(item => item.type === 'function_call' && item.name)).toEqual(['get_weather', 'get_time']);
    const forced = await client.responses.stream({ model: 'sim-1', input: 'Time please', tools: [weatherTool, timeTool], tool_choice: { type: 'function', name: 'get_time' } }).finalResponse();
    expect(forced.output.filter(item => item.type === 'function_call').map(item => item.type === 'function_call' && item.name)).toEqual(['get_time']);
  });

  it('emits a reasoning item with a summary and encrypted_content when asked, counted in usage', async () => {
    const body = { model: 'sim-1', input: 'Think first', reasoning: { effort: 'low' as const }, include: ['reasoning.encrypted_content' as const] };
    const json = await client.responses.create(body);
    const reasoning = json.output[0];
    expect(reasoning).toMatchObject({ type: 'reasoning', id: expect.stringMatching(/^rs_/), summary: [{ type: 'summary_text', text: expect.stringMatching(/^Consider/) }] });
    expect(reasoning?.type === 'reasoning' && reasoning.encrypted_content).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(json.usage?.output_tokens_details.reasoning_tokens).toBe(16);
    expect(json.usage?.output_tokens).toBe(80);

    const types: string[] = [];
    const stream = client.responses.stream(body);
    stream.on('event', event => types.push(event.type));
    const final = await stream.finalResponse();
    expect(final.output.map(item => item.type)).toEqual(['reasoning', 'message']);
    expect(types.slice(2, 5)).toEqual(['response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta']);
    expect(types).toContain('response.reasoning_summary_part.done');
    const plain = await client.responses.create({ model: 'sim-1', input: 'Think first', reasoning: { effort: 'none' } });
    expect(plain.output.map(item => item.type)).toEqual(['message']);
    const unencrypted = await client.responses.create({ model: 'sim-1', input: 'Think first', reasoning: { effort: 'low' } });
    expect(unencrypted.output[0]).not.toHaveProperty('encrypted_content');
  });
});
