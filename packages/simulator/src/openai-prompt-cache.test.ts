import OpenAI from 'openai';
import { createSimulator, type Simulator } from './create-simulator';
import { parseSSEJson } from './testing/parse-sse-text';
import { postJson } from './testing/post-json';

const MINUTE = 60_000;
/** Text of exactly `tokens` simulator tokens (four characters each), distinct per `seed`. */
const text = (tokens: number, seed = 'a') => `${seed}bcd`.repeat(tokens);

describe('OpenAI automatic prompt caching (Responses and Chat)', () => {
  let simulator: Simulator;
  let url: string;
  let clock: number;
  const client = (key = 'key-a') => new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
  const responsesUsage = async (input: string, extra: Partial<OpenAI.Responses.ResponseCreateParamsNonStreaming> = {}, key?: string) =>
    (await client(key).responses.create({ model: 'sim-1', input, ...extra })).usage;

  beforeEach(async () => {
    clock = Date.UTC(2026, 0, 1);
    simulator = createSimulator({ now: () => clock });
    ({ url } = await simulator.listen());
  });
  afterEach(() => simulator.close());

  it('caches a prompt of 1,024 tokens or more and reports the longest 128-token step inside input_tokens', async () => {
    const prompt = text(1300);
    expect(await responsesUsage(prompt)).toMatchObject({ input_tokens: 1300, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 } });
    expect(await responsesUsage(prompt)).toMatchObject({ input_tokens: 1300, input_tokens_details: { cached_tokens: 1280, cache_write_tokens: 0 } });
    expect(simulator.credentialStats('key-a')).toMatchObject({ requests: 2, inputTokens: 2600, cacheReadTokens: 1280, cacheWriteTokens: 0 });
  });

  it('caches nothing under 1,024 tokens', async () => {
    const prompt = text(1023);
    await responsesUsage(prompt);
    expect(await responsesUsage(prompt)).toMatchObject({ input_tokens: 1023, input_tokens_details: { cached_tokens: 0 } });
  });

  it('reads only the common prefix of two prompts, rounded down to a step', async () => {
    const shared = text(1200);
    await responsesUsage(`${shared}${text(300, 'z')}`);
    expect(await responsesUsage(`${shared}${text(300, 'y')}`)).toMatchObject({ input_tokens: 1500, input_tokens_details: { cached_tokens: 1152 } });
    const other = `${text(100, 'x')}${shared}`;
    expect(await responsesUsage(other)).toMatchObject({ input_tokens_details: { cached_tokens: 0 } });
  });

  it('keys the cache by prompt_cache_key, the model and the key, with instructions and tools in the prefix', async () => {
    const prompt = text(1100);
    await responsesUsage(prompt, { prompt_cache_key: 'conversation-1' });
    expect(await responsesUsage(prompt, { prompt_cache_key: 'conversation-2' })).toMatchObject({ input_tokens_details: { cached_tokens: 0 } });
    expect(await responsesUsage(prompt, { prompt_cache_key: 'conversation-1' })).toMatchObject({ input_tokens_details: { cached_tokens: 1024 } });
    expect(await responsesUsage(prompt, { prompt_cache_key: 'conversation-1', model: 'sim-2' })).toMatchObject({ input_tokens_details: { cached_tokens: 0 } });
    expect(await responsesUsage(prompt, { prompt_cache_key: 'conversation-1' }, 'key-b')).toMatchObject({ input_tokens_details: { cached_tokens: 0 } });
    expect(await responsesUsage(prompt, { prompt_cache_key: 'conversation-1', instructions: 'Be brief.' })).toMatchObject({ input_tokens_details: { cached_tokens: 0 } });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false }];
    // Tool definitions count no tokens in the simulator, but they are part of the prefix.
    expect(await responsesUsage(prompt, { prompt_cache_key: 'conversation-1', tools })).toMatchObject({ input_tokens: 1100, input_tokens_details: { cached_tokens: 0 } });
    expect(await responsesUsage(prompt, { prompt_cache_key: 'conversation-1', tools })).toMatchObject({ input_tokens_details: { cached_tokens: 1024 } });
  });

  it('keeps an entry 5 minutes from its last use, and a day with prompt_cache_retention 24h', async () => {
    const prompt = text(1100);
    const extended = text(1100, 'e');
    await responsesUsage(prompt);
    await responsesUsage(extended, { prompt_cache_retention: '24h' });
    clock += 5 * MINUTE + 1;
    expect(await responsesUsage(prompt)).toMatchObject({ input_tokens_details: { cached_tokens: 0 } });
    clock += 23 * 60 * MINUTE;
    expect(await responsesUsage(extended, { prompt_cache_retention: '24h' })).toMatchObject({ input_tokens_details: { cached_tokens: 1024 } });
  });

  it('reports cached_tokens inside prompt_tokens on Chat, JSON and the stream usage chunk on the wire', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: text(1000) }, { role: 'user', content: text(200, 'u') }];
    const first = await client().chat.completions.create({ model: 'sim-1', messages });
    expect(first.usage).toMatchObject({ prompt_tokens: 1200, prompt_tokens_details: { cached_tokens: 0 } });
    const second = await client().chat.completions.create({ model: 'sim-1', messages });
    expect(second.usage).toMatchObject({ prompt_tokens: 1200, total_tokens: 1264, prompt_tokens_details: { cached_tokens: 1152 } });
    const body = { model: 'sim-1', messages, stream: true, stream_options: { include_usage: true } };
    const raw = await postJson(`${url}/v1/chat/completions`, body, { authorization: 'Bearer key-a' });
    const usageChunk = parseSSEJson(raw.text).at(-1);
    expect(usageChunk).toMatchObject({ choices: [], usage: { prompt_tokens: 1200, prompt_tokens_details: { cached_tokens: 1152 } } });
  });

  it('reports cached_tokens in response.completed on the wire of a Responses stream', async () => {
    const prompt = text(1100);
    await responsesUsage(prompt);
    const raw = await postJson(`${url}/v1/responses`, { model: 'sim-1', input: prompt, stream: true }, { authorization: 'Bearer key-a' });
    const completed = parseSSEJson(raw.text).find(payload => payload.type === 'response.completed');
    expect(completed).toMatchObject({ response: { usage: { input_tokens: 1100, input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 0 } } } });
  });
});
