import Anthropic from '@anthropic-ai/sdk';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { createSimulator, type Simulator } from './create-simulator';
import { parseSSEJson } from './testing/parse-sse-text';
import { PROTOCOL_CASES } from './testing/protocol-cases';
import { ANTHROPIC_HEADERS, postJson } from './testing/post-json';
import { readBodyUntilEnd } from './testing/read-body-until-end';
import { waitUntil } from './testing/wait-until';

const TEST_KEY = 'simulator-test-key';

async function withSimulator(options: Parameters<typeof createSimulator>[0], run: (simulator: Simulator, url: string) => Promise<void>) {
  const simulator = createSimulator(options);
  try {
    const { url } = await simulator.listen();
    await run(simulator, url);
  } finally {
    await simulator.close();
  }
}

describe('createSimulator', () => {
  it('listens on 127.0.0.1 by default and closes promptly despite keep-alive connections', async () => {
    const simulator = createSimulator();
    const { url, port } = await simulator.listen();
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(port).toBeGreaterThan(0);
    const answer = await postJson(`${url}/v1/chat/completions`, { model: 'sim', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.status).toBe(200);
    const started = Date.now();
    await simulator.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(simulator.server.listening).toBe(false);
  });

  it('rejects options it cannot honour and uses defaultOutputTokens', async () => {
    expect(() => createSimulator({ defaultOutputTokens: 49 })).toThrow(RangeError);
    expect(() => createSimulator({ tokenDelayMs: -1 })).toThrow(RangeError);
    await withSimulator({ defaultOutputTokens: 80 }, async (_simulator, url) => {
      const client = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.usage?.completion_tokens).toBe(80);
      expect(answer.choices[0]?.message.content?.split(' ')).toHaveLength(80);
    });
  });

  it('enforces apiKey as Bearer on the OpenAI paths and x-api-key on Messages, in each envelope', async () => {
    await withSimulator({ apiKey: TEST_KEY }, async (_simulator, url) => {
      const good = new OpenAI({ apiKey: TEST_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
      const bad = new OpenAI({ apiKey: 'wrong', baseURL: `${url}/v1`, maxRetries: 0 });
      await expect(good.responses.create({ model: 'sim', input: 'hi' })).resolves.toMatchObject({ status: 'completed' });
      const refused = await bad.chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(refused).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
      expect(JSON.stringify((refused as InstanceType<typeof OpenAI.APIError>).error)).not.toContain('wrong');
      const missing = await postJson(`${url}/v1/responses`, { model: 'sim', input: 'hi' });
      expect(missing.status).toBe(401);

      const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: url, maxRetries: 0 });
      await expect(anthropic.messages.create({ model: 'sim', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })).resolves.toMatchObject({ stop_reason: 'end_turn' });
      const wrong = await new Anthropic({ apiKey: 'wrong', baseURL: url, maxRetries: 0 }).messages.create({ model: 'sim', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
      expect(wrong).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(wrong).toMatchObject({ status: 401, type: 'authentication_error' });
      const bearerOnly = await postJson(`${url}/v1/messages`, { model: 'sim', max_tokens: 10, messages: [] }, { ...ANTHROPIC_HEADERS, authorization: `Bearer ${TEST_KEY}` });
      expect(bearerOnly.status).toBe(401);
      expect(JSON.parse(bearerOnly.text)).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' }, request_id: bearerOnly.headers.get('request-id') });
    });
  });

  it('refuses malformed or incomplete requests in the path envelope, and unknown paths and methods', async () => {
    await withSimulator({}, async (_simulator, url) => {
      const openAIBad = await postJson(`${url}/v1/responses`, '{"model": ');
      expect(openAIBad.status).toBe(400);
      expect(JSON.parse(openAIBad.text)).toEqual({ error: { message: expect.stringContaining('parse the JSON body'), type: 'invalid_request_error', param: null, code: null } });
      const anthropicBad = await postJson(`${url}/v1/messages`, 'not json', ANTHROPIC_HEADERS);
      expect(JSON.parse(anthropicBad.text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      const noModel = await postJson(`${url}/v1/chat/completions`, { messages: [{ role: 'user', content: 'hi' }] });
      expect(noModel.status).toBe(400);
      expect(JSON.parse(noModel.text)).toMatchObject({ error: { param: 'model', type: 'invalid_request_error' } });
      const noMaxTokens = await postJson(`${url}/v1/messages`, { model: 'sim', messages: [{ role: 'user', content: 'hi' }] }, ANTHROPIC_HEADERS);
      expect(noMaxTokens.status).toBe(400);
      expect(JSON.parse(noMaxTokens.text)).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } });
      const noVersion = await postJson(`${url}/v1/messages`, { model: 'sim', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      expect(noVersion.status).toBe(400);
      expect(JSON.parse(noVersion.text)).toMatchObject({ error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
      const unknown = await postJson(`${url}/v1/embeddings`, {});
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.text)).toMatchObject({ error: { type: 'invalid_request_error' } });
      const countTokens = await postJson(`${url}/v1/messages/count_tokens`, {}, ANTHROPIC_HEADERS);
      expect(countTokens.status).toBe(404);
      expect(JSON.parse(countTokens.text)).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
      const wrongMethod = await postJson(`${url}/v1/chat/completions`, undefined, {}, 'GET');
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('POST');
      expect(wrongMethod.headers.get('x-request-id')).toMatch(/^req_/);
    });
  });

  it('counts requests per path and a client that disconnects mid-stream as aborted', async () => {
    await withSimulator({ tokenDelayMs: 20 }, async (simulator, url) => {
      for (const protocol of PROTOCOL_CASES) {
        const controller = new AbortController();
        const response = await fetch(`${url}${protocol.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...protocol.headers },
          body: JSON.stringify(protocol.body('Tell me about rivers', true)),
          signal: controller.signal,
        });
        const reader = response.body?.getReader();
        await reader?.read();
        controller.abort();
        await waitUntil(() => simulator.stats().active === 0);
      }
      expect(simulator.stats()).toEqual({
        requests: 3,
        aborted: 3,
        active: 0,
        byPath: { '/v1/responses': 1, '/v1/messages': 1, '/v1/chat/completions': 1 },
      });
      await postJson(`${url}/nowhere`, {});
      expect(simulator.stats().byPath.other).toBe(1);
      simulator.resetStats();
      expect(simulator.stats()).toEqual({ requests: 0, aborted: 0, active: 0, byPath: {} });
    });
  });

  it('logs the method, path with query and headers of every request it received', async () => {
    await withSimulator({}, async (simulator, url) => {
      const response = await fetch(`${url}/v1/messages?beta=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...ANTHROPIC_HEADERS, 'anthropic-beta': 'context-management-2025-06-27' },
        body: JSON.stringify({ model: 'sim', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      await response.text();
      expect(simulator.requests()).toHaveLength(1);
      expect(simulator.requests()[0]).toMatchObject({
        method: 'POST',
        url: '/v1/messages?beta=true',
        headers: { 'anthropic-beta': 'context-management-2025-06-27' },
      });
    });
  });

  it('logs the top-level field names of a JSON body, unknown ones included, never their values', async () => {
    await withSimulator({}, async (simulator, url) => {
      const response = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...ANTHROPIC_HEADERS },
        body: JSON.stringify({ model: 'sim', max_tokens: 10, messages: [{ role: 'user', content: 'violet pangolin' }], brand_new_field: 1 }),
      });
      expect(response.status).toBe(200);
      await response.text();
      expect(simulator.requests()[0]!.fields).toEqual(['model', 'max_tokens', 'messages', 'brand_new_field']);
      expect(JSON.stringify(simulator.requests())).not.toContain('violet pangolin');
    });
  });

  it('streams very long answers completely through socket backpressure', async () => {
    await withSimulator({}, async (simulator, url) => {
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim', stream: true, messages: [{ role: 'user', content: '[[sim:tokens=30000]] go' }] }),
      });
      const outcome = await readBodyUntilEnd(response);
      const chunks = parseSSEJson(outcome.text) as Array<{ choices: Array<{ delta: { content?: string } }> }>;
      expect(chunks.filter(chunk => (chunk.choices[0]?.delta.content ?? '') !== '')).toHaveLength(30000);
      expect(outcome.text.endsWith('data: [DONE]\n\n')).toBe(true);
      expect(simulator.stats().aborted).toBe(0);
    });
  });

  it('paces tokens with tokenDelayMs and waits firstTokenDelayMs before the first one', async () => {
    await withSimulator({ tokenDelayMs: 10, firstTokenDelayMs: 150 }, async (_simulator, url) => {
      const started = Date.now();
      const response = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...ANTHROPIC_HEADERS },
        body: JSON.stringify({ model: 'sim', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'pace me' }] }),
      });
      const outcome = await readBodyUntilEnd(response);
      const elapsed = Date.now() - started;
      expect(parseSSEJson(outcome.text).filter(payload => payload.type === 'content_block_delta')).toHaveLength(10);
      expect(elapsed).toBeGreaterThanOrEqual(150 + 10 * 10 - 20);
    });
  });

  it('runs embedded as the handler of another server, with a body the host already parsed', async () => {
    const simulator = createSimulator();
    const host = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        (request as IncomingMessage & { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        simulator.handler(request, response);
      });
    });
    await new Promise<void>(resolve => host.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
      const client = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 });
      const answer = await client.responses.stream({ model: 'sim', input: 'Embedded please' }).finalResponse();
      expect(answer.output_text.startsWith('Embedded please')).toBe(true);
      expect(simulator.stats().requests).toBe(1);
    } finally {
      host.closeAllConnections();
      await new Promise(resolve => host.close(resolve));
      await simulator.close();
    }
  });
});
