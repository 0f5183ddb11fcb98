import type { Response } from 'express';

/**
 * Sends a JSON answer with one `JSON.stringify` and one `end`: the headers `res.json` would set
 * (`application/json; charset=utf-8`, the byte length), without its per-answer work that a protocol
 * answer never needs (ETag hashing, freshness checks, content-type parsing, the host's JSON
 * formatting settings). A string body lets Node send the headers and the body in one write.
 */
export function writeJSONResponse(response: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('content-length', Buffer.byteLength(text));
  response.end(text);
}
