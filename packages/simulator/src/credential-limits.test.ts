import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createSimulator, type Simulator } from './create-simulator';
import { ANTHROPIC_HEADERS, postJson, type RawAnswer } from './testing/post-json';

const SECOND = 1000;
const START = Date.UTC(2026, 0, 1, 12, 0, 0);
const hi = [{ role: 'user' as const, content: 'hi' }];

describe('per-key rate limits and revocation', () => {
  let simulator: Simulator;
  let url: string;
  let clock: number;
  const messages = (key: string) => postJson(`${url}/v1/messages`, { model: 'sim-1', max_tokens: 10, messages: hi }, { ...ANTHROPIC_HEADERS, 'x-api-key': key });
  const chat = (key: string) => postJson(`${url}/v1/chat/completions`, { model: 'sim-1', messages: hi }, { authorization: `Bearer ${key}` });
  const responses = (key: string) => postJson(`${url}/v1/responses`, { model: 'sim-1', input: 'hi' }, { authorization: `Bearer ${key}` });

  beforeEach(async () => {
    clock = START;
    simulator = createSimulator({
      now: () => clock,
      credentials: { 'limited-key': { requestsPerMinute: 2 }, 'revoked-key': { revoked: true } },
    });
    ({ url } = await simulator.listen());
  });
  afterEach(() => simulator.close());

  it('meters requests per minute on Messages: headers on every answer, then 429 rate_limit_error with retry-after and an RFC 3339 reset', async () => {
    const first = await messages('limited-key');
    expect(first.status).toBe(200);
    expect(headersOf(first, 'anthropic-ratelimit-')).toEqual({
      'anthropic-ratelimit-requests-limit': '2',
      'anthropic-ratelimit-requests-remaining': '1',
      'anthropic-ratelimit-requests-reset': '2026-01-01T12:00:30Z',
    });
    expect((await messages('limited-key')).headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    const refused = await messages('limited-key');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.headers.get('anthropic-ratelimit-requests-reset')).toBe('2026-01-01T12:01:00Z');
    expect(JSON.parse(refused.text)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringContaining('rate limit of 2 requests per minute') },
      request_id: refused.headers.get('request-id'),
    });
    clock += 30 * SECOND;
    expect((await messages('limited-key')).status).toBe(200);
    expect((await messages('limited-key')).status).toBe(429);
    expect((await messages('other-key')).status).toBe(200);
    expect(simulator.credentialStats('limited-key')).toMatchObject({ requests: 5, rateLimited: 2 });
  });

  it('meters OpenAI paths with x-ratelimit-* durations and the API’s 429 body, which the SDK turns into RateLimitError', async () => {
    const first = await chat('limited-key');
    expect(headersOf(first, 'x-ratelimit-')).toEqual({
      'x-ratelimit-limit-requests': '2',
      'x-ratelimit-remaining-requests': '1',
      'x-ratelimit-reset-requests': '30s',
    });
    clock += 10 * SECOND; // a third of a request back: 1.33 left after the next one is 0.33
    expect((await responses('limited-key')).headers.get('x-ratelimit-reset-requests')).toBe('50s');
    const refused = await new OpenAI({ apiKey: 'limited-key', baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 'sim-1', messages: hi })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    const error = refused as InstanceType<typeof OpenAI.RateLimitError>;
    expect(error.headers.get('retry-after')).toBe('20');
    expect(error.headers.get('x-ratelimit-reset-requests')).toBe('50s');
    expect(error.error).toEqual({
      message: 'Rate limit reached for requests per min (RPM): Limit 2, Used 2, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    });
  });

  it('holds a refused key for retryAfterSeconds, after which its allowance is whole, and a limit of 0 refuses at once', async () => {
    simulator.configureCredential('cooling-key', { requestsPerMinute: 1, retryAfterSeconds: 120 });
    expect((await chat('cooling-key')).status).toBe(200);
    const refused = await chat('cooling-key');
    expect([refused.status, refused.headers.get('retry-after'), refused.headers.get('x-ratelimit-reset-requests')]).toEqual([429, '120', '2m0s']);
    clock += 119 * SECOND;
    const still = await messages('cooling-key');
    expect([still.status, still.headers.get('retry-after'), still.headers.get('anthropic-ratelimit-requests-reset')]).toEqual([429, '1', '2026-01-01T12:02:00Z']);
    clock += SECOND;
    expect((await chat('cooling-key')).status).toBe(200);
    simulator.configureCredential('blocked-key', { requestsPerMinute: 0, retryAfterSeconds: 5 });
    const blocked = await responses('blocked-key');
    expect([blocked.status, blocked.headers.get('retry-after'), blocked.headers.get('x-ratelimit-limit-requests')]).toEqual([429, '5', '0']);
  });

  it('answers a revoked key 401 in each envelope, before reading the body, and flips keys while running', async () => {
    const anthropicRefusal = await new Anthropic({ apiKey: 'revoked-key', baseURL: url, maxRetries: 0 }).messages
      .create({ model: 'sim-1', max_tokens: 10, messages: hi })
      .catch((error: unknown) => error);
    expect(anthropicRefusal).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(anthropicRefusal).toMatchObject({ status: 401, error: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    const openAIRefusal = await responses('revoked-key');
    expect(openAIRefusal.status).toBe(401);
    expect(JSON.parse(openAIRefusal.text)).toEqual({ error: { message: expect.stringContaining('Incorrect API key provided.'), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    expect(openAIRefusal.text).not.toContain('revoked-key');
    const azure = await postJson(`${url}/v1/chat/completions`, 'not even JSON', { 'api-key': 'revoked-key' });
    expect(azure.status).toBe(401);

    expect((await chat('key-c')).status).toBe(200);
    simulator.configureCredential('key-c', { revoked: true });
    expect((await chat('key-c')).status).toBe(401);
    simulator.configureCredential('key-c', undefined);
    expect((await chat('key-c')).status).toBe(200);
    expect(simulator.credentialStats('key-c')).toMatchObject({ requests: 3, revoked: 1 });
    expect(simulator.credentialStats('revoked-key')).toMatchObject({ requests: 3, revoked: 3, inputTokens: 0 });
    expect(() => simulator.configureCredential('key-c', { requestsPerMinute: -1 })).toThrow(RangeError);
  });

  it('resetStats zeroes every key’s stats', async () => {
    await chat('key-c');
    simulator.resetStats();
    expect(simulator.credentialStats('key-c')).toEqual({ requests: 0, rateLimited: 0, revoked: 0, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});

describe('the control endpoint', () => {
  let simulator: Simulator;
  let url: string;

  beforeEach(async () => {
    simulator = createSimulator({ credentials: { 'named-key': { name: 'primary' } } });
    ({ url } = await simulator.listen());
  });
  afterEach(() => simulator.close());

  it('sets a key’s settings, lists keys by name or digest with their stats, never the key', async () => {
    const set = await postJson(`${url}/simulator/credentials`, { key: 'secret-key-1', revoked: true });
    expect(set.status).toBe(200);
    expect(JSON.parse(set.text)).toEqual({ name: expect.stringMatching(/^key-[0-9a-f]{12}$/), settings: { revoked: true } });
    expect((await postJson(`${url}/v1/chat/completions`, { model: 'sim-1', messages: hi }, { authorization: 'Bearer secret-key-1' })).status).toBe(401);
    await postJson(`${url}/v1/messages`, { model: 'sim-1', max_tokens: 10, messages: hi }, { ...ANTHROPIC_HEADERS, 'x-api-key': 'named-key' });
    const listed = await postJson(`${url}/simulator/credentials`, undefined, {}, 'GET');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('secret-key-1');
    const { credentials } = JSON.parse(listed.text) as { credentials: Array<{ name: string; settings: unknown; stats: { requests: number; revoked: number } }> };
    expect(credentials).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'primary', settings: {}, stats: expect.objectContaining({ requests: 1 }) }),
        expect.objectContaining({ name: JSON.parse(set.text).name, settings: { revoked: true }, stats: expect.objectContaining({ requests: 1, revoked: 1 }) }),
      ]),
    );
    expect((await postJson(`${url}/simulator/credentials`, { key: 'secret-key-1' })).status).toBe(200);
    expect((await postJson(`${url}/v1/chat/completions`, { model: 'sim-1', messages: hi }, { authorization: 'Bearer secret-key-1' })).status).toBe(200);
  });

  it('clears the prompt cache with DELETE /simulator/prompt-cache', async () => {
    const ask = () => postJson(`${url}/v1/responses`, { model: 'sim-1', input: 'abcd'.repeat(1100) });
    await ask();
    expect(JSON.parse((await ask()).text).usage.input_tokens_details.cached_tokens).toBe(1024);
    expect((await postJson(`${url}/simulator/prompt-cache`, undefined, {}, 'DELETE')).status).toBe(200);
    expect(JSON.parse((await ask()).text).usage.input_tokens_details.cached_tokens).toBe(0);
  });

  it('refuses bad settings, unknown paths and methods in the OpenAI envelope without echoing the key', async () => {
    const cases: Array<[RawAnswer, number, string]> = [
      [await postJson(`${url}/simulator/credentials`, { key: 'secret-key-2', requestsPerMinute: 'many' }), 400, 'requestsPerMinute must be a finite number'],
      [await postJson(`${url}/simulator/credentials`, { key: 'secret-key-2', colour: 'red' }), 400, 'unknown credential setting'],
      [await postJson(`${url}/simulator/credentials`, { requestsPerMinute: 1 }), 400, 'key must be a string'],
      [await postJson(`${url}/simulator/credentials`, '{"key":'), 400, 'could not parse the JSON body'],
      [await postJson(`${url}/simulator/credentials`, undefined, {}, 'PUT'), 405, 'Use GET, POST'],
      [await postJson(`${url}/simulator/nothing`, undefined, {}, 'GET'), 404, 'Unknown control path'],
    ];
    for (const [answer, status, message] of cases) {
      expect([answer.status, JSON.parse(answer.text).error.message]).toEqual([status, expect.stringContaining(message)]);
      expect(answer.text).not.toContain('secret-key-2');
    }
  });
});

function headersOf(answer: RawAnswer, prefix: string): Record<string, string> {
  return Object.fromEntries([...answer.headers.entries()].filter(([name]) => name.startsWith(prefix)));
}
