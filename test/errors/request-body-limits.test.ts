import { openRawConnection, type RawAnswer } from '../helpers/open-raw-connection';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { startWithConfig } from './refusal-helpers';

const BODY_LIMIT_BYTES = 16 * 1024;
const BODY_TIMEOUT_MS = 300;
const MIB = 1024 * 1024;

/** Raw bytes for the headers of a POST with a JSON body, on the Responses or the Messages interface. */
function requestHead(server: TestGateway, interfaceName: 'responses' | 'messages', framing: string): string {
  const auth =
    interfaceName === 'responses'
      ? `authorization: Bearer ${server.demoKey}\r\n`
      : `x-api-key: ${server.demoKey}\r\nanthropic-version: 2023-06-01\r\n`;
  return `POST /v1/${interfaceName} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${auth}${framing}\r\n`;
}

/** One chunk of a chunked body, as it goes on the wire. */
const chunk = (bytes: string) => `${Buffer.byteLength(bytes).toString(16)}\r\n${bytes}\r\n`;

function expectRefusal(answer: RawAnswer, status: number, code: string) {
  expect({ status: answer.status, code: (JSON.parse(answer.body) as { code: string }).code }).toEqual({ status, code });
  expect(answer.headers['x-request-id']).toMatch(/^req_/);
}

describe('request bodies are refused as soon as the refusal is known, and never held open', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startWithConfig(config => ({ ...config, bodyLimitBytes: BODY_LIMIT_BYTES, bodyTimeoutMs: BODY_TIMEOUT_MS }));
  });
  afterAll(() => server.close(1_000));

  it('answers a declared Content-Length of 100 MiB with 413 REQUEST_TOO_LARGE at once, with 9 bytes sent, and closes the connection', async () => {
    const connection = await openRawConnection(server.url);
    await connection.write(`${requestHead(server, 'responses', `content-length: ${100 * MIB}\r\n`)}{"model":`);
    const answer = await connection.answer;
    expectRefusal(answer, 413, 'REQUEST_TOO_LARGE');
    expect(answer.headers.connection).toBe('close');
    // Far below the body timeout: the answer does not wait for the body at all.
    expect(answer.elapsedMs).toBeLessThan(BODY_TIMEOUT_MS);
    console.log(`413 for a declared 100 MiB body after ${answer.elapsedMs.toFixed(1)} ms`);
    await connection.closedByServer;
  });

  it('answers a chunked body with 413 REQUEST_TOO_LARGE the moment it passes the limit, before the rest is sent, and closes the connection', async () => {
    const connection = await openRawConnection(server.url);
    await connection.write(requestHead(server, 'responses', 'transfer-encoding: chunked\r\n'));
    await connection.write(chunk(`{"model":"signalbox-sim","input":"${'x'.repeat(BODY_LIMIT_BYTES / 2)}`));
    await connection.write(chunk('y'.repeat(BODY_LIMIT_BYTES / 2)));
    // The body is now just over the limit; the rest (and the closing chunk) is never sent.
    const answer = await connection.answer;
    expectRefusal(answer, 413, 'REQUEST_TOO_LARGE');
    expect(answer.headers.connection).toBe('close');
    await connection.closedByServer;
  });

  it('still answers a chunked body under the limit', async () => {
    const connection = await openRawConnection(server.url);
    await connection.write(requestHead(server, 'responses', 'transfer-encoding: chunked\r\n'));
    await connection.write(chunk('{"model":"signalbox-sim",'));
    await connection.write(chunk('"input":"Count the freight cars"}'));
    await connection.write('0\r\n\r\n');
    const answer = await connection.answer;
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { status: string }).status).toBe('completed');
    connection.destroy();
  });

  it('ends a body that stalls with 408 REQUEST_TIMEOUT after the body timeout, in the caller\'s envelope, and closes the connection', async () => {
    const connection = await openRawConnection(server.url);
    await connection.write(`${requestHead(server, 'messages', 'content-length: 200\r\n')}{"model":"signalbox-sim",`);
    const answer = await connection.answer;
    expectRefusal(answer, 408, 'REQUEST_TIMEOUT');
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(answer.headers['request-id']).toBe(answer.headers['x-request-id']);
    expect(answer.headers.connection).toBe('close');
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 5);
    await connection.closedByServer;
  });

  it('ends a chunked body that stops arriving with 408 REQUEST_TIMEOUT after the body timeout', async () => {
    const connection = await openRawConnection(server.url);
    await connection.write(requestHead(server, 'responses', 'transfer-encoding: chunked\r\n'));
    await connection.write(chunk('{"model":"signalbox-sim",'));
    const answer = await connection.answer;
    expectRefusal(answer, 408, 'REQUEST_TIMEOUT');
    expect(JSON.parse(answer.body)).toMatchObject({ error: { type: 'invalid_request_error', code: 'request_timeout' } });
    await connection.closedByServer;
  });

  it('answers headers over Node\'s size limit with 431 HEADERS_TOO_LARGE in a JSON envelope', async () => {
    const connection = await openRawConnection(server.url);
    const filler = Array.from({ length: 40 }, (_, index) => `x-filler-${index}: ${'f'.repeat(1_000)}\r\n`).join('');
    await connection.write(`${requestHead(server, 'responses', filler)}`).catch(() => undefined);
    const answer = await connection.answer;
    expectRefusal(answer, 431, 'HEADERS_TOO_LARGE');
    expect(answer.headers.connection).toBe('close');
  });
});

describe("Node's own timeouts bound what the gateway cannot see", () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startWithConfig(config => ({ ...config, bodyTimeoutMs: 30_000 }));
  });
  afterAll(() => server.close(1_000));

  it('sets headersTimeout to 20 s and requestTimeout past the headers and the body timeout, checked every second', () => {
    expect({ headersTimeout: server.server.headersTimeout, requestTimeout: server.server.requestTimeout }).toEqual({
      headersTimeout: 20_000,
      requestTimeout: 20_000 + 30_000 + 5_000,
    });
  });
});

describe('a request whose headers never end', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
    // Node reads these when it checks its connections (every second here), so a test can shorten them.
    server.server.headersTimeout = 100;
    server.server.requestTimeout = 100;
  });
  afterAll(() => server.close(1_000));

  it("is answered 408 REQUEST_TIMEOUT in a JSON envelope once the server's headersTimeout has passed", async () => {
    const connection = await openRawConnection(server.url);
    await connection.write('POST /v1/responses HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n');
    const answer = await connection.answer;
    expectRefusal(answer, 408, 'REQUEST_TIMEOUT');
    expect(answer.headers.connection).toBe('close');
    await connection.closedByServer;
  });
});
