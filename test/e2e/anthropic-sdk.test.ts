import AnthropicV0 from '@anthropic-ai/sdk';
import AnthropicV1 from 'anthropic-sdk-v1';
import { authHeaders, postForSSE } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { validateMessagesStream } from '../stream-validators';

const PROMPT = 'Describe how a railway signalbox sorts freight cars';
const MESSAGES_ROUTES = ['signalbox-sim', 'sim-via-responses', 'sim-via-messages', 'sim-via-chat'];

type AnyAnthropic = InstanceType<typeof AnthropicV0>;

describe('@anthropic-ai/sdk against the example server', () => {
  let server: TestGateway;
  const clients: Array<[string, () => AnyAnthropic]> = [
    ['0.x', () => new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0, timeout: 15_000 })],
    [
      '1.x with x-api-key and anthropic-version 2023-06-01',
      () =>
        new AnthropicV1({
          baseURL: server.url,
          apiKey: null,
          authToken: null,
          maxRetries: 0,
          timeout: 15_000,
          defaultHeaders: { 'x-api-key': server.demoKey, 'anthropic-version': '2023-06-01', authorization: null },
        }) as unknown as AnyAnthropic,
    ],
  ];

  beforeAll(async () => {
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  describe.each(clients)('SDK %s', (_name, makeClient) => {
    describe.each(MESSAGES_ROUTES)('on %s', model => {
      it('answers a JSON request', async () => {
        const message = await makeClient().messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] });
        expect(message.type).toBe('message');
        expect(message.model).toBe(model);
        expect(message.stop_reason).toBe('end_turn');
        const text = message.content.map(block => (block.type === 'text' ? block.text : '')).join('');
        expect(text.trim().split(/\s+/).length).toBeGreaterThanOrEqual(50);
        expect(message.usage.output_tokens).toBeGreaterThanOrEqual(50);
        expect(message._request_id).toMatch(/^req_/);
      });

      it('streams through messages.stream() with a valid event order', async () => {
        const stream = makeClient().messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] });
        let deltas = '';
        stream.on('text', text => (deltas += text));
        const final = await stream.finalMessage();
        expect(final.stop_reason).toBe('end_turn');
        const text = final.content.map(block => (block.type === 'text' ? block.text : '')).join('');
        expect(text).toBe(deltas);
        expect(final.usage.output_tokens).toBeGreaterThanOrEqual(50);

        const raw = await postForSSE(`${server.url}/v1/messages`, authHeaders.messages(server.demoKey), {
          model,
          max_tokens: 256,
          stream: true,
          messages: [{ role: 'user', content: PROMPT }],
        });
        expect(raw.status).toBe(200);
        expect(raw.headers.get('request-id')).toMatch(/^req_/);
        const verdict = validateMessagesStream(raw.messages);
        expect(verdict.violations).toEqual([]);
        expect(verdict.outcome).toBe('completed');
        expect(verdict.text).toBe(text);
      });

      it('reports truncation as stop_reason max_tokens, JSON and stream', async () => {
        const message = await makeClient().messages.create({ model, max_tokens: 20, messages: [{ role: 'user', content: PROMPT }] });
        expect(message.stop_reason).toBe('max_tokens');
        const final = await makeClient()
          .messages.stream({ model, max_tokens: 20, messages: [{ role: 'user', content: PROMPT }] })
          .finalMessage();
        expect(final.stop_reason).toBe('max_tokens');
      });
    });

    it('refuses a route without Messages support with a clear 400', async () => {
      const failure = await makeClient()
        .messages.create({ model: 'sim-responses-only', max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] })
        .catch(error => error);
      expect(failure.constructor.name).toBe('BadRequestError');
      expect(failure.status).toBe(400);
      expect(failure.error?.error?.type).toBe('invalid_request_error');
      expect(failure.error?.code).toBe('INTERFACE_NOT_SUPPORTED');
      expect(String(failure.message)).toMatch(/does not support the messages interface/);
      expect(failure.requestID).toMatch(/^req_/);
    });
  });
});
