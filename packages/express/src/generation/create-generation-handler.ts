import type { RequestHandler, Response } from 'express';
import { getExchange } from '../context/gateway-context';
import { abortControllerForResponse } from './abort-controller-for-response';
import { writeJSONResponse } from './write-json-response';
import { writeStreamResponse } from './write-stream-response';

export type GenerationHandlerOptions = {
  /** Silence after which a stream gets a `: keep-alive` comment, in ms; 0 turns it off. Default 15 000. */
  keepAliveMs?: number;
};

/**
 * Thin adapter: the parsed body goes to the request's exchange, its answer comes back as JSON or as
 * an SSE stream. A client that disconnects aborts the upstream call.
 *
 * @example router.post('/v1/responses', …request id, auth and body…, createGenerationHandler())
 */
export function createGenerationHandler(options: GenerationHandlerOptions = {}): RequestHandler {
  const { keepAliveMs = 15_000 } = options;
  return async function generationHandler(request, response) {
    // The generation's one controller: the client leaving aborts it, and so does the engine ending the request.
    const stop = abortControllerForResponse(response);
    const output = await getExchange(request).generate(request.body, stop);
    setHeaders(response, output.headers);
    if (output.kind === 'json') {
      writeJSONResponse(response, 200, output.body);
      return;
    }
    const contentType = output.headers['content-type'];
    // Handed on, not awaited: an open stream keeps no suspended frame of this handler.
    return writeStreamResponse(response, output.pipe, { signal: stop.signal, keepAliveMs, ...(contentType !== undefined && { contentType }) });
  };
}

/** Sets the answer's headers, without an array of entries made per request. */
function setHeaders(response: Response, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) response.setHeader(name, headers[name]!);
}
