import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync, } from 'node:zlib';

/** A request body as a JSON object, or why it is not one (status + message for the error envelope). */
export type RequestBodyResult =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; status: 400 | 413 | 415; message: string };

/**
 * The request encodings the vendors' APIs accept (Codex sends zstd bodies); `identity` is none.
 * Each decodes at most `maxOutputLength` bytes, so a small bomb cannot grow past the body limit.
 */
const DECODERS: ReadonlyMap<string, (input: Buffer, options: { maxOutputLength: number }) => Buffer> = new Map<
  string,
  (input: Buffer, options: { maxOutputLength: number }) => Buffer
>([
  ['gzip', gunzipSync],
  ['x-gzip', gunzipSync],
  ['deflate', inflateSync],
  ['br', brotliDecompressSync],
  ['zstd', zstdDecompressSync],
]);

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
  const decoded = decodeBody(Buffer.concat(chunks), request.headers['content-encoding'], maxBytes);
  return Buffer.isBuffer(decoded) ? parseBody(decoded.toString('utf8')) : decoded;
}

/** The body with its `Content-Encoding` undone (the last encoding listed was applied last). */
function decodeBody(raw: Buffer, header: string | undefined, maxBytes: number): Buffer | RequestBodyResult {
  const encodings = (header ?? '')
    .split(',')
    .map(encoding => encoding.trim().toLowerCase())
    .filter(encoding => encoding !== '' && encoding !== 'identity');
  let body = raw;
  for (const encoding of encodings.reverse()) {
    const decode = DECODERS.get(encoding);
    if (decode === undefined) return { ok: false, status: 415, message: `Unsupported Content-Encoding: ${encoding}.` };
    try {
      body = decode(body, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, status: 413, message: `Request body exceeds ${maxBytes} bytes.` };
      return { ok: false, status: 400, message: `The request body is not valid ${encoding} data.` };
    }
  }
  return body;
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
