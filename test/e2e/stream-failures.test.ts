import OpenAI from 'openai';
import AnthropicV0 from '@anthropic-ai/sdk';
import { authHeaders, postForSSE } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { validateChatStream, validateMessagesStream, validateResponsesStream } from '../stream-validators';

const UPSTREAMS = ['sim-via-responses', 'sim-via-messages', 'sim-via-chat'];

describe('an upstream stream that fails after HTTP 200', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  describe.each(UPSTREAMS)('through %s', model => {
    describe.each([
      ['ends without its terminal event', '[[sim:cut]] tell me a story'],
      ['sends an error event', '[[sim:stream-error]] tell me a story'],
    ])('when the upstream %s', (_case, prompt) => {
      it('is a failure on the Responses interface, never completed', async () => {
        const raw = await postForSSE(`${server.url}/v1/responses`, authHeaders.responses(server.demoKey), { model, input: prompt, stream: true });
        const verdict = validateResponsesStream(raw.messages);
        expect(verdict.violations).toEqual([]);
        expect(['failed', 'error']).toContain(verdict.outcome);
        expect(verdict.text.length).toBeGreaterThan(0); // deltas were forwarded before the failure
      });

      it('is an error event on the Messages interface', async () => {
        const raw = await postForSSE(`${server.url}/v1/messages`, authHeaders.messages(server.demoKey), {
          model,
          max_tokens: 256,
          stream: true,
          messages: [{ role: 'user', content: prompt }],
        });
        const verdict = validateMessagesStream(raw.messages);
        expect(verdict.violations).toEqual([]);
        expect(verdict.outcome).toBe('error');
      });

      it('is an error chunk on the Chat interface', async () => {
        const raw = await postForSSE(`${server.url}/v1/chat/completions`, authHeaders.chat(server.demoKey), {
          model,
          stream: true,
          messages: [{ role: 'user', content: prompt }],
        });
        const verdict = validateChatStream(raw.messages, { expectUsage: false });
        expect(verdict.violations).toEqual([]);
        expect(verdict.outcome).toBe('error');
      });

      it('makes the official SDKs throw instead of returning partial text as success', async () => {
        const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });
        const anthropic = new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });
        const responsesFinal = await openai.responses
          .stream({ model, input: prompt })
          .finalResponse()
          .then(response => response.status, error => `threw ${error.constructor.name}`);
        expect(responsesFinal).not.toBe('completed');
        await expect(
          anthropic.messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: prompt }] }).finalMessage(),
        ).rejects.toThrow();
      });
    });
  });

  it('aborts the upstream request when the client disconnects', async () => {
    const before = server.simulator.stats().aborted;
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders.responses(server.demoKey) },
      body: JSON.stringify({ model: 'sim-via-messages', input: '[[sim:slow=50]] a long answer please', stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    for (let waited = 0; waited < 3_000 && server.simulator.stats().aborted === before; waited += 25) {
      await new Promise(resolve => setTimeout(resolve, 25));
    }
    expect(server.simulator.stats().aborted).toBe(before + 1);
    const record = server.recentUsage().at(-1);
    expect(record?.outcome).toBe('client-aborted');
  });
});
