import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import OpenAI from 'openai';
import type { TestGateway } from '../helpers/start-test-gateway';
import { startWithConfig } from './refusal-helpers';

const BODY_LIMIT_BYTES = 16 * 1024;
const BODY_TIMEOUT_MS = 2_000;

const COMPRESSORS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: bytes => gzipSync(bytes),
  deflate: bytes => deflateSync(bytes),
  br: bytes => brotliCompressSync(bytes),
  zstd: bytes => zstdCompressSync(bytes),
};

type Answer = { status: number; body: { code?: string; type?: string; status?: string; error?: { type?: string; message?: string } }; requestId: string | null };

describe('compressed request bodies', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startWithConfig(config => ({ ...config, bodyLimitBytes: BODY_LIMIT_BYTES, bodyTimeoutMs: BODY_TIMEOUT_MS }));
  });
  afterAll(() => server.close(1_000));

  /** POSTs `body` (already encoded) with `Content-Encoding: encoding` to the Responses or Messages interface. */
  async function post(interfaceName: 'responses' | 'messages', encoding: string, body: Buffer): Promise<Answer> {
    const auth: Record<string, string> =
      interfaceName === 'responses' ? { authorization: `Bearer ${server.demoKey}` } : { 'x-api-key': server.demoKey, 'anthropic-version': '2023-06-01' };
    const response = await fetch(`${server.url}/v1/${interfaceName}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'content-encoding': encoding },
      body: new Uint8Array(body),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'], requestId: response.headers.get('x-request-id') };
  }

  const responsesBody = Buffer.from(JSON.stringify({ model: 'signalbox-sim', input: 'Count the freight cars' }));
  const messagesBody = Buffer.from(
    JSON.stringify({ model: 'signalbox-sim', max_tokens: 64, messages: [{ role: 'user', content: 'Count the freight cars' }] }),
  );

  it.each(Object.keys(COMPRESSORS))('decodes a Content-Encoding: %s body on /v1/responses and answers 200', async encoding => {
    const answer = await post('responses', encoding, COMPRESSORS[encoding]!(responsesBody));
    expect({ status: answer.status, state: answer.body.status }).toEqual({ status: 200, state: 'completed' });
  });

  it.each(Object.keys(COMPRESSORS))('decodes a Content-Encoding: %s body on /v1/messages and answers 200', async encoding => {
    const answer = await post('messages', encoding, COMPRESSORS[encoding]!(messagesBody));
    expect({ status: answer.status, type: answer.body.type }).toEqual({ status: 200, type: 'message' });
  });

  it('serves the openai SDK when its requests are sent zstd-compressed, as Codex sends them', async () => {
    const compressingFetch: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('content-encoding', 'zstd');
      const body = zstdCompressSync(Buffer.from(String(init?.body)));
      return fetch(input, { ...init, headers, body: new Uint8Array(body) });
    };
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, fetch: compressingFetch, maxRetries: 0 });
    const response = await client.responses.create({ model: 'signalbox-sim', input: 'Count the freight cars' });
    expect(response.status).toBe('completed');
    expect(response.output_text.length).toBeGreaterThan(0);
  });

  it('refuses a 10 KB gzip body that inflates past the limit with 413 REQUEST_TOO_LARGE at once, without inflating the rest', async () => {
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(11 * 1024);
    const started = performance.now();
    const answer = await post('responses', 'gzip', bomb);
    const elapsedMs = performance.now() - started;
    expect({ status: answer.status, code: answer.body.code, message: answer.body.error?.message }).toEqual({
      status: 413,
      code: 'REQUEST_TOO_LARGE',
      message: `The request body is larger than the limit of ${BODY_LIMIT_BYTES} bytes.`,
    });
    // Inflating all 10 MB and then refusing would take far longer than stopping at the first 16 KB.
    expect(elapsedMs).toBeLessThan(BODY_TIMEOUT_MS / 2);
  });

  it('still refuses a compressed body whose own size is over the limit with 413, before decoding it', async () => {
    const random = Buffer.from(Array.from({ length: BODY_LIMIT_BYTES * 2 }, (_, index) => (index * 7919) % 251));
    const answer = await post('responses', 'gzip', gzipSync(random, { level: 0 }));
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 413, code: 'REQUEST_TOO_LARGE' });
  });

  it('refuses a corrupt gzip body with 400 INVALID_REQUEST naming the encoding', async () => {
    const corrupt = gzipSync(responsesBody);
    corrupt.fill(0x7a, 12, 24);
    const answer = await post('responses', 'gzip', corrupt);
    expect({ status: answer.status, code: answer.body.code, message: answer.body.error?.message }).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
      message: 'The request body does not decode as gzip, the Content-Encoding it was sent with.',
    });
  });

  it('refuses a body cut off in the middle of its zstd frame with 400 INVALID_JSON (the decoder yields the cut JSON)', async () => {
    // Node's zstd decoder ends a truncated frame without an error, so the cut shows in the JSON it yields.
    const whole = zstdCompressSync(responsesBody);
    const answer = await post('responses', 'zstd', whole.subarray(0, whole.length - 6));
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: 'INVALID_JSON' });
  });

  it('refuses a body cut off in the middle of its gzip stream with 400 INVALID_REQUEST', async () => {
    const whole = gzipSync(responsesBody);
    const answer = await post('responses', 'gzip', whole.subarray(0, whole.length - 6));
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
  });

  it('refuses an unknown Content-Encoding with 415 UNSUPPORTED_CONTENT_ENCODING in the Responses envelope', async () => {
    const answer = await post('responses', 'compress', responsesBody);
    expect(answer).toEqual({
      status: 415,
      body: {
        error: {
          message: "The request body's Content-Encoding 'compress' is not supported; send it uncompressed or as gzip, deflate, br or zstd.",
          type: 'invalid_request_error',
          param: null,
          code: 'unsupported_content_encoding',
        },
        code: 'UNSUPPORTED_CONTENT_ENCODING',
        request_id: answer.requestId,
      },
      requestId: expect.stringMatching(/^req_/) as unknown,
    });
  });

  it('refuses an unknown Content-Encoding with 415 UNSUPPORTED_CONTENT_ENCODING in the Messages envelope', async () => {
    const answer = await post('messages', 'gzip, br', messagesBody);
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: "The request body's Content-Encoding 'gzip, br' is not supported; send it uncompressed or as gzip, deflate, br or zstd.",
      },
      request_id: answer.requestId,
      code: 'UNSUPPORTED_CONTENT_ENCODING',
    });
  });

  it('reads a body sent with Content-Encoding: identity as it is', async () => {
    const answer = await post('responses', 'identity', responsesBody);
    expect(answer.status).toBe(200);
  });
});
