import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen-on-loopback';
import { TOY_REQUEST_ID_HEADER, type ToyRequest } from './toy-codec';

/** What the toy upstream received: the body and the authorization header of each call. */
export type ToyUpstreamCall = { body: ToyRequest; authorization: string | undefined };

export type ToyUpstream = { url: string; calls: ToyUpstreamCall[]; close(): Promise<void> };

/**
 * A model that speaks the toy protocol on `POST /v1/toy/generate`: it answers `echo: <prompt>`, as
 * JSON or as one `event: token` frame per word followed by `event: done`. A prompt containing
 * `[[toy:busy]]` gets a 503 in the toy failure envelope; one containing `[[toy:length]]` finishes
 * with `length` instead of `stop`; one containing `[[toy:cut]]`, streamed, ends after its first two
 * tokens without `done`.
 */
export async function startToyUpstream(): Promise<ToyUpstream> {
  const calls: ToyUpstreamCall[] = [];
  let served = 0;
  const server = await listenOnLoopback((request, response) => {
    void answer(request, response);
  });
  async function answer(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    served += 1;
    const requestId = `toyreq_${served}`;
    response.setHeader(TOY_REQUEST_ID_HEADER, requestId);
    if (request.method !== 'POST' || request.url !== '/v1/toy/generate') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(failure('not_found', 'No such toy endpoint.', requestId));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ToyRequest;
    calls.push({ body, authorization: request.headers.authorization });
    if (body.prompt.includes('[[toy:busy]]')) {
      response.writeHead(503, { 'content-type': 'application/json' }).end(failure('busy', 'The toy model is busy.', requestId));
      return;
    }
    const text = `echo: ${body.prompt}`;
    const finish = body.prompt.includes('[[toy:length]]') ? 'length' : 'stop';
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: `toyresp_${served}`, model: body.model, text, finish }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const tokens = text.split(/(?= )/);
    const cut = body.prompt.includes('[[toy:cut]]');
    for (const token of cut ? tokens.slice(0, 2) : tokens) response.write(`event: token\ndata: ${JSON.stringify({ text: token })}\n\n`);
    if (!cut) response.write(`event: done\ndata: ${JSON.stringify({ finish })}\n\n`);
    response.end();
  }
  return { url: server.url, calls, close: server.close };
}

function failure(code: string, message: string, requestId: string): string {
  return JSON.stringify({ failure: { code, message, request_id: requestId } });
}
