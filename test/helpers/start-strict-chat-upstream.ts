import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen-on-loopback';

/** What the strict Chat upstream received: each call's body and headers. */
export type StrictChatCall = { body: Record<string, unknown>; headers: IncomingHttpHeaders };

export type StrictChatUpstream = { url: string; calls: StrictChatCall[]; close(): Promise<void> };

/** The top-level fields it refuses, as Mistral's request schema does. */
const FORBIDDEN_FIELDS = ['stream_options', 'max_completion_tokens'];

/**
 * A Chat Completions server on `POST /v1/chat/completions` that refuses fields it does not know
 * with 422 `extra_forbidden` (as Mistral does `stream_options` and `max_completion_tokens`) and
 * reports usage in a stream's last chunk unasked. It answers `hello there` (5 input tokens, 2 output).
 */
export async function startStrictChatUpstream(): Promise<StrictChatUpstream> {
  const calls: StrictChatCall[] = [];
  const server = await listenOnLoopback((request, response) => {
    void answer(request, response);
  });
  async function answer(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    calls.push({ body, headers: request.headers });
    const forbidden = FORBIDDEN_FIELDS.filter(field => field in body);
    if (request.url !== '/v1/chat/completions' || forbidden.length > 0) {
      response.writeHead(422, { 'content-type': 'application/json' }).end(refusal(forbidden));
      return;
    }
    const base = { id: 'cmpl-strict', created: 1_700_000_000, model: String(body.model) };
    const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };
    if (body.stream !== true) {
      const message = { role: 'assistant', content: 'hello there' };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }], usage }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: object, finish: string | null, extra: object = {}) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    response.write(chunk({ role: 'assistant', content: 'hello' }, null));
    response.write(chunk({ content: ' there' }, null));
    response.write(chunk({}, 'stop', { usage }));
    response.end('data: [DONE]\n\n');
  }
  return { url: server.url, calls, close: server.close };
}

function refusal(fields: readonly string[]): string {
  const detail = fields.map(field => ({ type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted' }));
  return JSON.stringify({ object: 'error', message: { detail }, type: 'invalid_request_error', param: null, code: null });
}
