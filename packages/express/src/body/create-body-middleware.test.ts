import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { GatewayError } from '@signalbox/core';
import express, { type ErrorRequestHandler } from 'express';
import { createBodyMiddleware } from './create-body-middleware';

/** A bare app: the body middleware, then an echo of the parsed body; refusals answered as `{ status, code }`. */
async function startEcho() {
  const app = express();
  app.post('/echo', createBodyMiddleware({ limitBytes: 1024, timeoutMs: 5_000 }), (request, response) => void response.status(200).json(request.body));
  app.post('/form', createBodyMiddleware({ limitBytes: 1024, timeoutMs: 5_000, forms: true }), (request, response) => void response.status(200).json(request.body));
  const onError: ErrorRequestHandler = (error, _request, response, _next) => {
    const gatewayError = GatewayError.isInstance(error) ? error : undefined;
    response.status(gatewayError?.status ?? 500).json({ code: gatewayError?.code ?? 'UNEXPECTED' });
  };
  app.use(onError);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

/** POSTs raw bytes with exactly the given headers (no client adds or normalises any). */
async function post(port: number, headers: Record<string, string>, body: string | Buffer, path = '/echo'): Promise<{ status: number; body: unknown }> {
  const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers });
  outgoing.end(body);
  const [incoming] = (await once(outgoing, 'response')) as [IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return { status: incoming.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
}

let echo: Awaited<ReturnType<typeof startEcho>>;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(() => {
  echo.server.close();
});

describe('createBodyMiddleware: forms', () => {
  const form = 'token=sbx-console-abc&name=a%20b&name=last';
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(form.length) };

  it('reads a form post into its fields (a repeated name keeps its last value) where forms are read', async () => {
    expect(await post(echo.port, formHeaders, form, '/form')).toEqual({ status: 200, body: { token: 'sbx-console-abc', name: 'last' } });
    const json = '{"token":"t"}';
    expect(await post(echo.port, { 'content-type': 'application/json', 'content-length': String(json.length) }, json, '/form')).toEqual({ status: 200, body: { token: 't' } });
  });

  it('decodes a compressed form and refuses one that does not decode as its Content-Encoding says', async () => {
    const zipped = gzipSync(form);
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip', 'content-length': String(zipped.length) };
    expect((await post(echo.port, headers, zipped, '/form')).status).toBe(200);
    expect(await post(echo.port, { ...headers, 'content-encoding': 'br' }, zipped, '/form')).toEqual({ status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  it('refuses a form where only JSON is read, and anything but JSON or a form where forms are', async () => {
    expect(await post(echo.port, formHeaders, form)).toEqual({ status: 400, body: { code: 'INVALID_JSON' } });
    const text = { 'content-type': 'text/plain', 'content-length': String(form.length) };
    expect(await post(echo.port, text, form, '/form')).toEqual({ status: 400, body: { code: 'INVALID_JSON' } });
  });

  it('holds a form to the same size limit', async () => {
    const large = `token=${'a'.repeat(2_000)}`;
    const answer = await post(echo.port, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(large.length) }, large, '/form');
    expect(answer).toEqual({ status: 413, body: { code: 'REQUEST_TOO_LARGE' } });
  });
});

describe('createBodyMiddleware: which bodies count as JSON', () => {
  const body = '{"model":"m","n":1}';
  const length = String(Buffer.byteLength(body));

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=utf-8',
    'Application/JSON; Charset="UTF-8"',
    'application/json; charset=utf8',
  ])('parses a body sent as %s', async contentType => {
    const answer = await post(echo.port, { 'content-type': contentType, 'content-length': length }, body);
    expect(answer).toEqual({ status: 200, body: { model: 'm', n: 1 } });
  });

  it('parses a chunked body sent without a Content-Length', async () => {
    const answer = await post(echo.port, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body);
    expect(answer).toEqual({ status: 200, body: { model: 'm', n: 1 } });
  });

  it.each(['text/plain', 'application/jsonx', 'application/vnd.api+json', 'application/json/x'])(
    'refuses a body sent as %s with 400 INVALID_JSON',
    async contentType => {
      const answer = await post(echo.port, { 'content-type': contentType, 'content-length': length }, body);
      expect(answer).toEqual({ status: 400, body: { code: 'INVALID_JSON' } });
    },
  );

  it('refuses a body whose declared charset is not UTF-8 with 400 INVALID_REQUEST', async () => {
    const answer = await post(echo.port, { 'content-type': 'application/json; charset=latin1', 'content-length': length }, body);
    expect(answer).toEqual({ status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  it('refuses a request without a body (neither Content-Length nor Transfer-Encoding) with 400 INVALID_JSON', async () => {
    const socket = connect(echo.port, '127.0.0.1');
    socket.end('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n');
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const answer = Buffer.concat(chunks).toString('utf8');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.endsWith('{"code":"INVALID_JSON"}')).toBe(true);
  });

  it('skips a leading byte-order mark and reads an empty body as {}', async () => {
    const withMark = `\uFEFF${body}`;
    const marked = await post(echo.port, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(withMark)) }, withMark);
    expect(marked).toEqual({ status: 200, body: { model: 'm', n: 1 } });
    const empty = await post(echo.port, { 'content-type': 'application/json', 'content-length': '0' }, '');
    expect(empty).toEqual({ status: 200, body: {} });
  });
});
