import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** One request exactly as the fuzzer wants it on the wire (within what node's HTTP client allows). */
export type RawRequest = {
  method: string;
  /** The request target as sent: not normalized, not encoded. */
  path: string;
  /** Header lines in order; a name given twice is sent as two lines. */
  headers: ReadonlyArray<readonly [string, string]>;
  body?: Buffer;
  /** A `Content-Length` to declare instead of the body's real length. */
  declaredLength?: number;
  timeoutMs?: number;
};

/** What came back: status, headers (node's merged view and the raw lines) and the whole body. */
export type RawResponse = {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
};

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Sends one request to a loopback gateway on a fresh connection (no agent, so a malformed request
 * cannot poison the next one) and reads the whole answer. Rejects on timeout or a reset socket.
 */
export function sendRawRequest(baseURL: string, raw: RawRequest): Promise<RawResponse> {
  const target = new URL(baseURL);
  if (target.hostname !== '127.0.0.1')
    throw new Error(`The fuzzer only talks to 127.0.0.1, not ${target.hostname}`);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port: Number(target.port),
      method: raw.method,
      path: raw.path,
      agent: false,
      setHost: true,
      signal: AbortSignal.timeout(raw.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    for (const [name, values] of groupHeaders(raw))
      outgoing.setHeader(name, values.length === 1 ? values[0]! : values);
    outgoing.on('error', reject);
    outgoing.on('response', incoming => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          rawHeaders: incoming.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.end(raw.body);
  });
}

/** Header lines grouped by lower-cased name (node sends an array value as repeated lines). */
function groupHeaders(raw: RawRequest): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of raw.headers) {
    const key = name.toLowerCase();
    if (key === 'content-length') continue;
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  const length = raw.declaredLength ?? raw.body?.length;
  if (length !== undefined) grouped.set('content-length', [String(length)]);
  return grouped;
}
