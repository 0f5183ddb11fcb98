import Anthropic from '@anthropic-ai/sdk';
import { createSimulator, type Simulator } from './create-simulator';
import { parseSSEJson } from './testing/parse-sse-text';
import { ANTHROPIC_HEADERS, postJson } from './testing/post-json';

const MINUTE = 60_000;
const MINIMUM_TOKENS = 16;
/** Text of exactly `tokens` simulator tokens (four characters each), distinct per `seed`. */
const text = (tokens: number, seed = 'a') => `${seed}bcd`.repeat(tokens);
const ephemeral = { type: 'ephemeral' as const };
const oneHour = { type: 'ephemeral' as const, ttl: '1h' as const };
type Block = { type: 'text'; text: string; cache_control?: typeof ephemeral | typeof oneHour };
type Turn = { role: 'user' | 'assistant'; content: Block[] };

/** The Messages usage fields for a read, writes by lifetime and the uncached rest. */
function usage(tokens: { input: number; read: number; write5m: number; write1h?: number }) {
  const write1h = tokens.write1h ?? 0;
  return {
    input_tokens: tokens.input,
    cache_creation_input_tokens: tokens.write5m + write1h,
    cache_read_input_tokens: tokens.read,
    cache_creation: { ephemeral_5m_input_tokens: tokens.write5m, ephemeral_1h_input_tokens: write1h },
  };
}

describe('Messages prompt caching', () => {
  let simulator: Simulator;
  let url: string;
  let clock: number;
  const client = (key = 'key-a') => new Anthropic({ apiKey: key, baseURL: url, maxRetries: 0 });
  const usageOf = async (body: Omit<Anthropic.MessageCreateParamsNonStreaming, 'model' | 'max_tokens'>, key?: string, model = 'sim-1') =>
    (await client(key).messages.create({ model, max_tokens: 1024, ...body })).usage;
  /** A system prompt of `tokens` tokens marked as a breakpoint, then a two-token question. */
  const cachedSystem = (tokens: number, cacheControl: Block['cache_control'] = ephemeral) => ({
    system: [{ type: 'text' as const, text: text(tokens), cache_control: cacheControl }],
    messages: [{ role: 'user' as const, content: 'hi there' }],
  });

  beforeEach(async () => {
    clock = Date.UTC(2026, 0, 1);
    simulator = createSimulator({ promptCache: { minimumTokens: MINIMUM_TOKENS }, now: () => clock });
    ({ url } = await simulator.listen());
  });
  afterEach(() => simulator.close());

  it('writes a breakpoint prefix on first sight and reads it after, input_tokens counting only the rest', async () => {
    expect(await usageOf(cachedSystem(100))).toMatchObject(usage({ input: 2, read: 0, write5m: 100 }));
    expect(await usageOf(cachedSystem(100))).toMatchObject(usage({ input: 2, read: 100, write5m: 0 }));
    expect(simulator.credentialStats('key-a')).toMatchObject({ requests: 2, inputTokens: 204, cacheReadTokens: 100, cacheWriteTokens: 100 });
  });

  it('reports the same usage on the wire in message_start and message_delta of a stream', async () => {
    await usageOf(cachedSystem(100));
    const body = { model: 'sim-1', max_tokens: 1024, stream: true, ...cachedSystem(100) };
    const raw = await postJson(`${url}/v1/messages`, body, { ...ANTHROPIC_HEADERS, 'x-api-key': 'key-a' });
    const payloads = parseSSEJson(raw.text);
    const cacheFields = { input_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 100 };
    expect(payloads[0]).toMatchObject({ type: 'message_start', message: { usage: { ...cacheFields, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } } } });
    expect(payloads.find(payload => payload.type === 'message_delta')).toMatchObject({ usage: { ...cacheFields, output_tokens: 64 } });
  });

  it('caches nothing below the minimum length, and nothing without a breakpoint', async () => {
    const short = cachedSystem(MINIMUM_TOKENS - 3); // 13 tokens of system + 2 of question: the prefix is 13
    await usageOf(short);
    expect(await usageOf(short)).toMatchObject({ input_tokens: 15, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    const unmarked = { system: text(100), messages: [{ role: 'user' as const, content: 'hi there' }] };
    await usageOf(unmarked);
    expect(await usageOf(unmarked)).toMatchObject({ input_tokens: 102, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('keeps a prefix 5 minutes from its last use: a read renews it, a lapse writes it again', async () => {
    await usageOf(cachedSystem(100));
    clock += 4 * MINUTE;
    expect(await usageOf(cachedSystem(100))).toMatchObject({ cache_read_input_tokens: 100 });
    clock += 4 * MINUTE; // 8 minutes after the write, 4 after the read that renewed it
    expect(await usageOf(cachedSystem(100))).toMatchObject({ cache_read_input_tokens: 100 });
    clock += 5 * MINUTE + 1;
    expect(await usageOf(cachedSystem(100))).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 100 });
  });

  it('splits writes by lifetime (1 hour up to the last 1-hour breakpoint, 5 minutes after) and keeps the 1-hour prefix an hour', async () => {
    const mixed = {
      system: [{ type: 'text' as const, text: text(100), cache_control: oneHour }],
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: text(40, 'q'), cache_control: ephemeral }] }],
    };
    expect(await usageOf(mixed)).toMatchObject(usage({ input: 0, read: 0, write1h: 100, write5m: 40 }));
    clock += 30 * MINUTE;
    expect(await usageOf(mixed)).toMatchObject(usage({ input: 0, read: 100, write5m: 40 }));
    clock += 60 * MINUTE + 1;
    expect(await usageOf(mixed)).toMatchObject(usage({ input: 0, read: 0, write1h: 100, write5m: 40 }));
  });

  it('finds a prefix cached at an earlier turn up to 20 blocks before a breakpoint, not further', async () => {
    const conversation = (turns: number): Turn[] =>
      Array.from({ length: turns }, (_, index) => ({
        role: index % 2 === 0 ? 'user' : 'assistant',
        content: [{ type: 'text', text: text(10, String.fromCharCode(97 + (index % 26))), ...(index === turns - 1 && { cache_control: ephemeral }) }],
      }));
    expect(await usageOf({ messages: conversation(5) })).toMatchObject({ cache_creation_input_tokens: 50, cache_read_input_tokens: 0 });
    expect(await usageOf({ messages: conversation(7) })).toMatchObject({ input_tokens: 0, cache_creation_input_tokens: 20, cache_read_input_tokens: 50 });
    // The breakpoint at block 30 looks back to block 10: the prefixes cached at blocks 4 and 6 are too far.
    expect(await usageOf({ messages: conversation(31) })).toMatchObject({ cache_creation_input_tokens: 310, cache_read_input_tokens: 0 });
  });

  it('builds the prefix from tools, then system, then messages, so a changed tool misses (tool definitions count no tokens)', async () => {
    const tool = (description: string) => ({ name: 'get_weather', description, input_schema: { type: 'object' as const, properties: {} } });
    const request = (description: string, cacheControl?: typeof ephemeral) => ({ tools: [{ ...tool(description), cache_control: cacheControl }], ...cachedSystem(100) });
    expect(await usageOf(request('Weather for a city.'))).toMatchObject({ input_tokens: 2, cache_creation_input_tokens: 100 });
    expect(await usageOf(request('Weather for a city.', ephemeral))).toMatchObject({ cache_read_input_tokens: 100 });
    expect(await usageOf(request('Weather for a town.'))).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 100 });
    expect(await usageOf(cachedSystem(100))).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 100 });
  });

  it('keeps caches apart per key and per model', async () => {
    await usageOf(cachedSystem(100), 'key-a');
    expect(await usageOf(cachedSystem(100), 'key-b')).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 100 });
    expect(await usageOf(cachedSystem(100), 'key-a', 'sim-2')).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 100 });
    expect(await usageOf(cachedSystem(100), 'key-a')).toMatchObject({ cache_read_input_tokens: 100 });
    expect(simulator.credentialStats('key-b')).toMatchObject({ requests: 1, cacheReadTokens: 0, cacheWriteTokens: 100 });
  });

  it('places the top-level cache_control on the last block, so a growing conversation reads what it wrote', async () => {
    const turns = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content: text(20, String(index)) }));
    const automatic = (count: number) => client().messages.create({ model: 'sim-1', max_tokens: 1024, cache_control: ephemeral, messages: turns(count) } as Anthropic.MessageCreateParamsNonStreaming);
    expect((await automatic(3)).usage).toMatchObject({ cache_creation_input_tokens: 60, cache_read_input_tokens: 0, input_tokens: 0 });
    expect((await automatic(5)).usage).toMatchObject({ cache_creation_input_tokens: 40, cache_read_input_tokens: 60, input_tokens: 0 });
  });

  it('refuses more than four breakpoints and an unknown ttl with 400 invalid_request_error', async () => {
    const five = Array.from({ length: 5 }, (_, index) => ({ type: 'text', text: text(5, String(index)), cache_control: ephemeral }));
    const tooMany = await postJson(`${url}/v1/messages`, { model: 'sim-1', max_tokens: 10, system: five, messages: [{ role: 'user', content: 'hi' }] }, ANTHROPIC_HEADERS);
    expect(tooMany.status).toBe(400);
    expect(JSON.parse(tooMany.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' } });
    const badTtl = { model: 'sim-1', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral', ttl: '2h' } }] }] };
    const refused = await postJson(`${url}/v1/messages`, badTtl, ANTHROPIC_HEADERS);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { type: 'invalid_request_error', message: "messages.0.content.0.cache_control.ttl: Input should be '5m' or '1h'" } });
    expect(simulator.credentialStats('')).toMatchObject({ requests: 2, inputTokens: 0, cacheWriteTokens: 0 });
  });

  it('forgets every prefix on clearPromptCache and reports no cache activity with promptCache: false', async () => {
    await usageOf(cachedSystem(100));
    simulator.clearPromptCache();
    expect(await usageOf(cachedSystem(100))).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 100 });
    await simulator.close();
    simulator = createSimulator({ promptCache: false });
    ({ url } = await simulator.listen());
    await usageOf(cachedSystem(2000));
    expect(await usageOf(cachedSystem(2000))).toMatchObject({ input_tokens: 2002, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });
});
