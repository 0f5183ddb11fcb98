import AnthropicV0 from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

const PROMPT = 'Describe how a railway signalbox sorts freight cars';
/** A field no SDK type or codec knows, as a vendor might add next month. */
const NEW_FIELD = { brand_new_field: { enabled: true, level: 2 } };

type Interface = 'responses' | 'messages' | 'chat';

/**
 * A field the vendor added after this gateway was written, sent through the real SDKs (which send
 * whatever the params object holds; a cast stands in for the newer SDK types): on a same-protocol
 * route it reaches the upstream as sent, shown by the simulator's request log; on a translated
 * route the request is answered and the field is named in `x-signalbox-warnings`.
 */
describe('fields the gateway does not know, through the official SDKs', () => {
  let server: TestGateway;
  let openai: OpenAI;
  let anthropic: AnthropicV0;

  beforeAll(async () => {
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
    server = await startTestGateway();
    openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0, timeout: 15_000 });
    anthropic = new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0, timeout: 15_000 });
  });
  afterAll(() => server.close(1_000));

  /** One JSON request with `extra` on top of a minimal body: the answer's model, its warnings header and its status. */
  async function send(name: Interface, model: string, extra: Record<string, unknown>) {
    if (name === 'responses') {
      const params = { model, input: PROMPT, ...extra } as ResponseCreateParamsNonStreaming;
      const { data, response } = await openai.responses.create(params).withResponse();
      return { status: response.status, model: data.model, warnings: response.headers.get('x-signalbox-warnings') };
    }
    if (name === 'chat') {
      const params = { model, messages: [{ role: 'user', content: PROMPT }], ...extra } as ChatCompletionCreateParamsNonStreaming;
      const { data, response } = await openai.chat.completions.create(params).withResponse();
      return { status: response.status, model: data.model, warnings: response.headers.get('x-signalbox-warnings') };
    }
    const params = { model, max_tokens: 256, messages: [{ role: 'user', content: PROMPT }], ...extra } as MessageCreateParamsNonStreaming;
    const { data, response } = await anthropic.messages.create(params).withResponse();
    return { status: response.status, model: data.model, warnings: response.headers.get('x-signalbox-warnings') };
  }

  /** The top-level field names of the one upstream request `act` caused, from the simulator's log. */
  async function upstreamFieldsOf(act: () => Promise<unknown>): Promise<readonly string[]> {
    const before = server.simulator.requests().length;
    await act();
    const sent = server.simulator.requests().slice(before);
    expect(sent).toHaveLength(1);
    return sent[0]!.fields ?? [];
  }

  it.each([
    ['responses', 'sim-via-responses', '/v1/responses'],
    ['messages', 'sim-via-messages', '/v1/messages'],
    ['messages', 'signalbox-sim', '/v1/messages'],
    ['chat', 'sim-via-chat', '/v1/chat/completions'],
  ] as const)('%s on %s (same protocol): forwards the unknown field untouched, without a warning', async (name, model, path) => {
    const before = server.simulator.requests().length;
    const answer = await send(name, model, NEW_FIELD);
    expect(answer).toEqual({ status: 200, model, warnings: null });
    const sent = server.simulator.requests().slice(before);
    expect(sent.map(entry => entry.url)).toEqual([path]);
    expect(sent[0]!.fields).toContain('brand_new_field');
  });

  it.each([
    ['responses', 'sim-via-chat'],
    ['responses', 'sim-via-messages'],
    ['messages', 'sim-via-responses'],
    ['messages', 'sim-via-chat'],
    ['chat', 'sim-via-messages'],
    ['chat', 'sim-via-responses'],
  ] as const)('%s on %s (translated): answers 200, drops the unknown field and names it in x-signalbox-warnings', async (name, model) => {
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    const fields = await upstreamFieldsOf(async () => (answer = await send(name, model, NEW_FIELD)));
    expect(answer).toEqual({ status: 200, model, warnings: 'brand_new_field (unknown-field)' });
    expect(fields).not.toContain('brand_new_field');
  });

  it('names the first 20 of 3 000 unknown fields on a translated route and counts the rest, in a short header', async () => {
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, index) => [`new_field_${index}`, index]));
    const answer = await send('chat', 'sim-via-messages', many);
    expect(answer.status).toBe(200);
    const entries = (answer.warnings ?? '').split(', ');
    expect(entries).toEqual([
      ...Array.from({ length: 20 }, (_, index) => `new_field_${index} (unknown-field)`),
      '2980 other fields (unknown-field)',
    ]);
  });

  it.each([
    ['responses', 'sim-via-responses', { max_tokens: 64 }, /^`max_tokens` is a field of POST \/v1\/messages and POST \/v1\/chat\/completions, not of this endpoint \(POST \/v1\/responses\)/],
    ['messages', 'sim-via-messages', { max_output_tokens: 64 }, /`max_output_tokens` is a field of POST \/v1\/responses, not of this endpoint \(POST \/v1\/messages\): the output limit is `max_tokens`/],
    ['chat', 'sim-via-chat', { input: 'hi' }, /^`input` is a field of POST \/v1\/responses, not of this endpoint \(POST \/v1\/chat\/completions\)/],
  ] as const)('%s on %s: still refuses a field of a sibling endpoint with 400, even on a same-protocol route', async (name, model, extra, message) => {
    const before = server.simulator.requests().length;
    const failure = await send(name, model, extra).then(
      () => undefined,
      (error: unknown) => error,
    );
    const expectedClass = name === 'messages' ? AnthropicV0.BadRequestError : OpenAI.BadRequestError;
    expect(failure).toBeInstanceOf(expectedClass);
    const error = failure as InstanceType<typeof expectedClass>;
    expect(error.status).toBe(400);
    const body = error.error as { code?: string; error?: { message?: string } };
    const text = name === 'messages' ? body.error?.message : error.message.replace(/^400 /, '');
    expect(text).toMatch(message);
    expect(server.simulator.requests().length).toBe(before);
  });
});
