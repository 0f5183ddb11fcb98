import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createSimulator, type Simulator } from './create-simulator';
import { readScenarioDirectives, stripScenarioDirectives } from './scenario-directives';
import { parseSSEJson } from './testing/parse-sse-text';
import { PROTOCOL_CASES, type ProtocolCase } from './testing/protocol-cases';
import { readBodyUntilEnd } from './testing/read-body-until-end';
import { waitUntil } from './testing/wait-until';

describe('readScenarioDirectives', () => {
  it('reads every marker and ignores unknown names and out-of-range values', () => {
    expect(readScenarioDirectives(['hi [[sim:cut]] [[sim:slow=25]] [[sim:tool-rounds=20]]', '[[sim:status=429]] [[sim:tokens=7]] [[sim:bogus]]'])).toEqual({
      cut: true,
      streamError: false,
      status: 429,
      slowMs: 25,
      hang: false,
      outputTokens: 7,
      echoPrompt: false,
      toolRounds: 20,
      finish: undefined,
    });
    expect(readScenarioDirectives(['[[sim:status=200]] [[sim:slow=-1]] [[sim:tokens=0]] [[sim:hang]] [[sim:stream-error]] [[sim:tool-rounds=0]]'])).toEqual({
      cut: false,
      streamError: true,
      status: undefined,
      slowMs: undefined,
      hang: true,
      outputTokens: undefined,
      echoPrompt: false,
      toolRounds: undefined,
      finish: undefined,
    });
    expect(readScenarioDirectives(['[[sim:status=500]] [[sim:echo-prompt]] hi']).echoPrompt).toBe(true);
    expect(readScenarioDirectives(['[[sim:finish=RECITATION]] hi']).finish).toBe('RECITATION');
    expect(readScenarioDirectives(['[[sim:finish=safety]] [[sim:finish=]] hi']).finish).toBeUndefined();
    expect(stripScenarioDirectives('[[sim:cut]] Tell me [[sim:slow=5]]')).toBe('Tell me');
  });
});

describe('scenario directives on the wire', () => {
  let simulator: Simulator;
  let url: string;

  beforeAll(async () => {
    simulator = createSimulator();
    ({ url } = await simulator.listen());
  });
  afterAll(() => simulator.close());
  beforeEach(() => simulator.resetStats());

  const post = (protocol: ProtocolCase, text: string, stream: boolean, signal?: AbortSignal) =>
    fetch(`${url}${protocol.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...protocol.headers },
      body: JSON.stringify(protocol.body(text, stream)),
      signal,
    });

  describe.each(PROTOCOL_CASES)('$name', protocol => {
    it('[[sim:cut]] sends three deltas, then drops the connection without the terminal event', async () => {
      const outcome = await readBodyUntilEnd(await post(protocol, '[[sim:cut]] Tell me about rivers', true));
      expect(outcome.failed).toBe(true);
      const payloads = parseSSEJson(outcome.text);
      expect(payloads.filter(protocol.isTextDelta)).toHaveLength(3);
      expect(payloads.some(protocol.isTerminal)).toBe(false);
      expect(outcome.text).not.toContain('[DONE]');
      const json = await post(protocol, '[[sim:cut]] Tell me about rivers', false);
      expect(json.status).toBe(200);
      await expect(json.text()).rejects.toThrow();
      expect(simulator.stats().aborted).toBe(0);
    });

    it('[[sim:stream-error]] sends three deltas, then the in-stream error, then closes', async () => {
      const response = await post(protocol, 'Tell me about rivers [[sim:stream-error]]', true);
      expect(response.status).toBe(200);
      const outcome = await readBodyUntilEnd(response);
      expect(outcome.failed).toBe(false);
      const payloads = parseSSEJson(outcome.text);
      expect(payloads.filter(protocol.isTextDelta)).toHaveLength(3);
      expect(payloads.some(protocol.isTerminal)).toBe(false);
      expect(payloads.at(-1)).toHaveProperty('error');
    });

    it('[[sim:status=429]] answers 429 with retry-after before any stream', async () => {
      const response = await post(protocol, '[[sim:status=429]] hello', true);
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as Record<string, unknown>;
      if (protocol.name === 'messages') {
        expect(body).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.any(String) }, request_id: response.headers.get('request-id') });
      } else {
        expect(body).toEqual({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null, message: expect.any(String) } });
      }
    });

    it('[[sim:echo-prompt]] makes a status error quote the prompt without its markers', async () => {
      const response = await post(protocol, '[[sim:status=500]] [[sim:echo-prompt]] Tell me about rivers', false);
      expect(response.status).toBe(500);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toBe('Simulated HTTP 500 (requested by [[sim:status=500]]). The request was: "Tell me about rivers"');
    });

    it('[[sim:slow=MS]] paces the tokens', async () => {
      const started = Date.now();
      const outcome = await readBodyUntilEnd(await post(protocol, '[[sim:slow=30]] [[sim:tokens=8]] hello', true));
      expect(parseSSEJson(outcome.text).filter(protocol.isTextDelta)).toHaveLength(8);
      expect(Date.now() - started).toBeGreaterThanOrEqual(8 * 30 - 20);
    });

    it('[[sim:hang]] never answers and counts the abort when the client leaves', async () => {
      const controller = new AbortController();
      const pending = post(protocol, '[[sim:hang]] hello', true, controller.signal);
      await waitUntil(() => simulator.stats().active === 1);
      await new Promise(resolve => setTimeout(resolve, 50));
      expect(simulator.stats().active).toBe(1);
      controller.abort();
      await expect(pending).rejects.toThrow();
      await waitUntil(() => simulator.stats().active === 0);
      expect(simulator.stats().aborted).toBe(1);
    });
  });

  it('writes the exact in-stream error frame of each protocol', async () => {
    const [responses, messages, chat] = PROTOCOL_CASES as [ProtocolCase, ProtocolCase, ProtocolCase];
    const responsesText = (await readBodyUntilEnd(await post(responses, '[[sim:stream-error]] hi', true))).text;
    expect(responsesText.endsWith('\n\n')).toBe(true);
    expect(responsesText).toMatch(/event: error\ndata: \{"type":"error","sequence_number":\d+,/);
    const responsesPayloads = parseSSEJson(responsesText);
    expect(responsesPayloads.at(-1)).toEqual({
      type: 'error',
      sequence_number: responsesPayloads.length - 1,
      code: 'server_error',
      message: 'The server had an error while processing your request.',
      param: null,
      error: { type: 'server_error', code: 'server_error', message: 'The server had an error while processing your request.', param: null },
    });
    const messagesText = (await readBodyUntilEnd(await post(messages, '[[sim:stream-error]] hi', true))).text;
    expect(messagesText.endsWith('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n')).toBe(true);
    const chatText = (await readBodyUntilEnd(await post(chat, '[[sim:stream-error]] hi', true))).text;
    expect(chatText.endsWith('\n\ndata: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}\n\n')).toBe(true);
  });

  it('[[sim:tokens=N]] sets the answer length', async () => {
    const response = await post(PROTOCOL_CASES[2] as ProtocolCase, '[[sim:tokens=5]] hello there', false);
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }>; usage: { completion_tokens: number } };
    expect(body.usage.completion_tokens).toBe(5);
    expect(body.choices[0]?.message.content.split(' ')).toHaveLength(5);
  });

  it('surfaces the in-stream errors and statuses through the official SDKs', async () => {
    const openai = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: url, maxRetries: 0 });
    const ask = '[[sim:stream-error]] hello';
    await expect(openai.responses.stream({ model: 'sim-1', input: ask }).finalResponse()).rejects.toThrow(/server had an error/);
    await expect(openai.chat.completions.stream({ model: 'sim-1', messages: [{ role: 'user', content: ask }] }).finalChatCompletion()).rejects.toThrow(/server had an error/);
    const overloaded = await anthropic.messages.stream({ model: 'sim-1', max_tokens: 100, messages: [{ role: 'user', content: ask }] }).finalMessage().catch((error: unknown) => error);
    expect(overloaded).toBeInstanceOf(Anthropic.APIError);
    expect((overloaded as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');

    const status529 = await anthropic.messages.create({ model: 'sim-1', max_tokens: 100, messages: [{ role: 'user', content: '[[sim:status=529]] hi' }] }).catch((error: unknown) => error);
    expect(status529).toMatchObject({ status: 529, type: 'overloaded_error' });
    const status500 = await openai.responses.create({ model: 'sim-1', input: '[[sim:status=500]] hi' }).catch((error: unknown) => error);
    expect(status500).toBeInstanceOf(OpenAI.InternalServerError);
    expect(status500).toMatchObject({ status: 500, type: 'server_error' });
    const status400 = await openai.chat.completions.create({ model: 'sim-1', messages: [{ role: 'user', content: '[[sim:status=400]] hi' }] }).catch((error: unknown) => error);
    expect(status400).toBeInstanceOf(OpenAI.BadRequestError);
    const status401 = await anthropic.messages.create({ model: 'sim-1', max_tokens: 100, messages: [{ role: 'user', content: '[[sim:status=401]] hi' }] }).catch((error: unknown) => error);
    expect(status401).toBeInstanceOf(Anthropic.AuthenticationError);
    const nonStreaming = await anthropic.messages.create({ model: 'sim-1', max_tokens: 100, messages: [{ role: 'user', content: ask }] }).catch((error: unknown) => error);
    expect(nonStreaming).toMatchObject({ status: 529, type: 'overloaded_error' });
  });

  it('treats a directive in a trailing tool result like one in the user text', async () => {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'sim-1',
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '[[sim:status=503]] snow' },
        ],
      }),
    });
    expect(response.status).toBe(503);
  });
});
