import OpenAI from 'openai';
import { createSimulator, type Simulator } from './create-simulator';
import { parseSSEJson, parseSSEText } from './testing/parse-sse-text';
import { postJson } from './testing/post-json';

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
const timeTool = { type: 'function' as const, function: { ...weatherTool.function, name: 'get_time' } };
const ask = (text: string) => [{ role: 'user' as const, content: text }];
type Chunk = { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown };

describe('POST /v1/chat/completions', () => {
  let simulator: Simulator;
  let url: string;
  let client: OpenAI;

  beforeAll(async () => {
    simulator = createSimulator();
    ({ url } = await simulator.listen());
    client = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 });
  });
  afterAll(() => simulator.close());

  it('answers JSON deterministically with finish_reason stop and the exact usage shape', async () => {
    const first = await client.chat.completions.create({ model: 'sim-1', messages: [{ role: 'system', content: 'Be brief.' }, ...ask('Tell me about rivers')] });
    const second = await client.chat.completions.create({ model: 'sim-1', messages: [{ role: 'system', content: 'Be brief.' }, ...ask('Tell me about rivers')] });
    expect(first.choices[0]?.message.content).toBe(second.choices[0]?.message.content);
    expect(first).toMatchObject({ object: 'chat.completion', model: 'sim-1', choices: [{ index: 0, finish_reason: 'stop', logprobs: null }] });
    expect(first.id).toMatch(/^chatcmpl-/);
    expect(first.choices[0]?.message.content?.startsWith('Tell me about')).toBe(true);
    expect(first.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 64,
      total_tokens: 72,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
  });

  it('streams chunks the SDK helper accepts and adds the usage chunk only when include_usage is set', async () => {
    const json = await client.chat.completions.create({ model: 'sim-1', messages: ask('Stream it') });
    const final = await client.chat.completions.stream({ model: 'sim-1', messages: ask('Stream it'), stream_options: { include_usage: true } }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(json.choices[0]?.message.content);
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.usage).toEqual(json.usage);

    const withUsage = await postJson(`${url}/v1/chat/completions`, { model: 'sim-1', messages: ask('Stream it'), stream: true, stream_options: { include_usage: true } });
    expect(withUsage.headers.get('content-type')).toBe('text/event-stream');
    expect(withUsage.headers.get('x-request-id')).toMatch(/^req_/);
    const events = parseSSEText(withUsage.text);
    expect(events.every(event => event.event === undefined)).toBe(true);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = parseSSEJson(withUsage.text) as Chunk[];
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(chunks.at(-2)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: json.usage });
    expect(chunks.slice(0, -1).every(chunk => chunk.usage === null)).toBe(true);

    const withoutUsage = parseSSEJson((await postJson(`${url}/v1/chat/completions`, { model: 'sim-1', messages: ask('Stream it'), stream: true })).text) as Chunk[];
    expect(withoutUsage.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(withoutUsage.every(chunk => !('usage' in chunk))).toBe(true);
  });

  it('signals length for max_completion_tokens and max_tokens, in JSON and in the stream', async () => {
    const json = await client.chat.completions.create({ model: 'sim-1', messages: ask('Tell me about rivers'), max_completion_tokens: 12 });
    expect(json.choices[0]?.finish_reason).toBe('length');
    expect(json.usage?.completion_tokens).toBe(12);
    const legacy = await client.chat.completions.create({ model: 'sim-1', messages: ask('Tell me about rivers'), max_tokens: 12 });
    expect(legacy.choices[0]?.finish_reason).toBe('length');
    const streamed = await client.chat.completions.stream({ model: 'sim-1', messages: ask('Tell me about rivers'), max_completion_tokens: 12 }).finalChatCompletion();
    expect(streamed.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: json.choices[0]?.message.content } });
    const roomy = await client.chat.completions.create({ model: 'sim-1', messages: ask('Tell me about rivers'), max_completion_tokens: 64 });
    expect(roomy.choices[0]?.finish_reason).toBe('stop');
  });

  it('stops at a stop sequence with finish_reason stop', async () => {
    const full = (await client.chat.completions.create({ model: 'sim-1', messages: ask('Tell me about rivers') })).choices[0]?.message.content ?? '';
    const stopWord = full.split(' ')[8] as string;
    const stopped = await client.chat.completions.create({ model: 'sim-1', messages: ask('Tell me about rivers'), stop: stopWord });
    const text = stopped.choices[0]?.message.content ?? '';
    expect(stopped.choices[0]?.finish_reason).toBe('stop');
    expect(full.startsWith(`${text} ${stopWord}`)).toBe(true);
    expect(text.split(' ').length).toBeLessThan(9);
  });

  it('calls a tool with a call_ id and fragmented arguments, then reads the tool result', async () => {
    const json = await client.chat.completions.create({ model: 'sim-1', messages: ask('Use get_weather for Oslo'), tools: [weatherTool] });
    const message = json.choices[0]?.message;
    expect(json.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message?.content).toBe('I will call get_weather.');
    expect(message?.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
    ]);
    const raw = parseSSEJson((await postJson(`${url}/v1/chat/completions`, { model: 'sim-1', messages: ask('Use get_weather for Oslo'), tools: [weatherTool], stream: true })).text) as Chunk[];
    const fragments = raw.flatMap(chunk => (chunk.choices[0]?.delta.tool_calls as Array<{ function: { arguments?: string } }> | undefined) ?? []);
    expect(fragments.filter(fragment => (fragment.function.arguments ?? '') !== '').length).toBeGreaterThanOrEqual(2);
    const streamed = await client.chat.completions.stream({ model: 'sim-1', messages: ask('Use get_weather for Oslo'), tools: [weatherTool] }).finalChatCompletion();
    expect(streamed.choices[0]?.finish_reason).toBe('tool_calls');
    expect(streamed.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } });

    const callId = message?.tool_calls?.[0]?.id ?? '';
    const result = 'Three degrees and light snow over the fjord tonight';
    const followUp = await client.chat.completions.create({
      model: 'sim-1',
      tools: [weatherTool],
      messages: [...ask('Use get_weather for Oslo'), { role: 'assistant', content: null, tool_calls: message?.tool_calls ?? [] }, { role: 'tool', tool_call_id: callId, content: result }],
    });
    expect(followUp.choices[0]?.finish_reason).toBe('stop');
    expect(followUp.choices[0]?.message.tool_calls).toBeUndefined();
    expect(followUp.choices[0]?.message.content).toContain(result.slice(0, 40));
  });

  it('streams two parallel calls with distinct indices, and none with tool_choice none', async () => {
    const parallel = await client.chat.completions.stream({ model: 'sim-1', messages: ask('Call get_weather and get_time in parallel'), tools: [weatherTool, timeTool] }).finalChatCompletion();
    expect(parallel.choices[0]?.message.tool_calls?.map(call => call.type === 'function' && call.function.name)).toEqual(['get_weather', 'get_time']);
    const none = await client.chat.completions.create({ model: 'sim-1', messages: ask('Call get_weather and get_time in parallel'), tools: [weatherTool], tool_choice: 'none' });
    expect(none.choices[0]?.finish_reason).toBe('stop');
    expect(none.choices[0]?.message.tool_calls).toBeUndefined();
  });

  it('never emits reasoning, even when reasoning_effort is set', async () => {
    const json = await client.chat.completions.create({ model: 'sim-1', messages: ask('Think'), reasoning_effort: 'high' });
    expect(json.usage?.completion_tokens_details?.reasoning_tokens).toBe(0);
    expect(json.usage?.completion_tokens).toBe(64);
  });
});
