import { authHeaders, postForSSE } from '../helpers/read-sse';
import { useOpenAIGateway } from '../helpers/use-openai-gateway';
import { validateChatStream, validateResponsesStream } from '../stream-validators';

const PROMPT = 'Describe how a railway signalbox sorts freight cars';
const RESPONSES_ROUTES = ['signalbox-sim', 'sim-via-responses', 'sim-via-messages', 'sim-via-chat', 'sim-responses-only'];

describe('openai SDK (7.x) against the example server', () => {
  const gateway = useOpenAIGateway();

  describe.each(RESPONSES_ROUTES)('Responses on %s', model => {
    it('answers a JSON request', async () => {
      const response = await gateway.client.responses.create({ model, input: PROMPT });
      expect(response.status).toBe('completed');
      expect(response.model).toBe(model);
      expect(response.id).toMatch(/^resp_/);
      expect(response.output_text.trim().split(/\s+/).length).toBeGreaterThanOrEqual(50);
      expect(response.usage?.output_tokens).toBeGreaterThanOrEqual(50);
      expect(response.usage?.input_tokens).toBeGreaterThan(0);
      expect(response._request_id).toMatch(/^req_/);
    });

    it('streams through responses.stream() with a valid event order', async () => {
      const stream = gateway.client.responses.stream({ model, input: PROMPT });
      let deltas = '';
      stream.on('response.output_text.delta', event => (deltas += event.delta));
      const final = await stream.finalResponse();
      expect(final.status).toBe('completed');
      expect(final.output_text).toBe(deltas);
      expect(final.output_text.trim().split(/\s+/).length).toBeGreaterThanOrEqual(50);

      const raw = await postForSSE(`${gateway.server.url}/v1/responses`, authHeaders.responses(gateway.server.demoKey), { model, input: PROMPT, stream: true });
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const verdict = validateResponsesStream(raw.messages);
      expect(verdict.violations).toEqual([]);
      expect(verdict.outcome).toBe('completed');
      expect(verdict.text).toBe(final.output_text);
    });

    it('reports truncation as incomplete with max_output_tokens, JSON and stream', async () => {
      const response = await gateway.client.responses.create({ model, input: PROMPT, max_output_tokens: 20 });
      expect(response.status).toBe('incomplete');
      expect(response.incomplete_details?.reason).toBe('max_output_tokens');
      expect(response.usage?.output_tokens).toBeLessThanOrEqual(20);

      const raw = await postForSSE(`${gateway.server.url}/v1/responses`, authHeaders.responses(gateway.server.demoKey), {
        model,
        input: PROMPT,
        max_output_tokens: 20,
        stream: true,
      });
      const verdict = validateResponsesStream(raw.messages);
      expect(verdict.violations).toEqual([]);
      expect(verdict.outcome).toBe('incomplete');
    });
  });

  it('gives the same answer on every route (the translation keeps the prompt intact)', async () => {
    const texts = await Promise.all(RESPONSES_ROUTES.map(model => gateway.client.responses.create({ model, input: PROMPT })));
    expect(new Set(texts.map(response => response.output_text)).size).toBe(1);
  });

  describe.each(RESPONSES_ROUTES)('Chat Completions on %s', model => {
    it('answers a JSON request', async () => {
      const completion = await gateway.client.chat.completions.create({ model, messages: [{ role: 'user', content: PROMPT }] });
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.choices[0]?.message.content?.trim().split(/\s+/).length).toBeGreaterThanOrEqual(50);
      expect(completion.model).toBe(model);
    });

    it('streams through chat.completions.stream() with a valid chunk order', async () => {
      const stream = gateway.client.chat.completions.stream({ model, messages: [{ role: 'user', content: PROMPT }], stream_options: { include_usage: true } });
      const final = await stream.finalChatCompletion();
      expect(final.choices[0]?.finish_reason).toBe('stop');
      expect(final.usage?.completion_tokens).toBeGreaterThanOrEqual(50);

      const raw = await postForSSE(`${gateway.server.url}/v1/chat/completions`, authHeaders.chat(gateway.server.demoKey), {
        model,
        messages: [{ role: 'user', content: PROMPT }],
        stream: true,
      });
      const verdict = validateChatStream(raw.messages, { expectUsage: false });
      expect(verdict.violations).toEqual([]);
      expect(verdict.outcome).toBe('completed');
      expect(verdict.text).toBe(final.choices[0]?.message.content);
    });

    it('reports truncation as finish_reason length', async () => {
      const completion = await gateway.client.chat.completions.create({ model, messages: [{ role: 'user', content: PROMPT }], max_completion_tokens: 20 });
      expect(completion.choices[0]?.finish_reason).toBe('length');
    });
  });
});
