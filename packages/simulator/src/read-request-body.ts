import type { IncomingMessage } from 'node:http';

/** A request body as a JSON object, or why it is not one (status + message for the error envelope). */
export type RequestBodyResult =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; status: 400 | 413; message: string };

/**
 * Reads and parses the body once. A host that already parsed it (e.g. `express.json()` set
 * `request.body`) is honoured, so the handler can be mounted on another server.
 */
export async function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<RequestBodyResult> {
  const preParsed = (request as IncomingMessage & { body?: unknown }).body;
  if (preParsed !== undefined && request.readableEnded) return fromPreParsed(preParsed);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return { ok: false, status: 413, message: `Request body exceeds ${maxBytes} bytes.` };
    chunks.push(chunk);
  }
  return parseBody(Buffer.concat(chunks).toString('utf8'));
}

function fromPreParsed(body: unknown): RequestBodyResult {
  if (Buffer.isBuffer(body)) return parseBody(body.toString('utf8'));
  if (typeof body === 'string') return parseBody(body);
  return toObjectResult(body);
}

function parseBody(text: string): RequestBodyResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      ok: false,
      status: 400,
      message: 'We could not parse the JSON body of your request. The body must be valid JSON.',
    };
  }
  return toObjectResult(parsed);
}

function toObjectResult(value: unknown): RequestBodyResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, status: 400, message: 'The request body must be a JSON object.' };
  }
  return { ok: true, body: value as Record<string, unknown> };
}
