import { connect, type Socket } from 'node:net';

/** An answer as read off a raw socket: status, lower-cased headers, body, and when it arrived. */
export type RawAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from `openRawConnection` to the end of the answer's headers. */
  elapsedMs: number;
};

export type RawConnection = {
  /** Writes bytes as they are: any framing, any lie in `Content-Length`. */
  write(bytes: string | Buffer): Promise<void>;
  /** The first answer on the connection (headers plus a `Content-Length` body). */
  answer: Promise<RawAnswer>;
  /** Resolves when the server has closed its side of the connection. */
  closedByServer: Promise<void>;
  destroy(): void;
};

/**
 * A plain TCP connection to a loopback server, for requests no HTTP client would send: a
 * `Content-Length` far above the bytes sent, a chunked body that never ends, oversized headers.
 */
export async function openRawConnection(baseURL: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseURL);
  if (hostname !== '127.0.0.1') throw new Error(`Raw connections only go to 127.0.0.1, not ${hostname}`);
  const socket = await new Promise<Socket>((resolve, reject) => {
    const opened = connect({ host: '127.0.0.1', port: Number(port) }, () => resolve(opened)).once('error', reject);
  });
  const started = performance.now();
  socket.on('error', () => undefined); // a reset after the answer is the server closing: `closedByServer` reports it
  const closedByServer = new Promise<void>(resolve => {
    socket.once('end', resolve).once('close', resolve);
  });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    let received = Buffer.alloc(0);
    let headersEndAt: number | undefined;
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseAnswer(received);
      if (parsed.headersComplete && headersEndAt === undefined) headersEndAt = performance.now() - started;
      if (parsed.answer) {
        socket.off('data', onData);
        resolve({ ...parsed.answer, elapsedMs: headersEndAt! });
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`The connection closed before a whole answer: ${received.toString('latin1')}`)));
  });
  answer.catch(() => undefined);
  return {
    write: bytes => new Promise((resolve, reject) => socket.write(bytes, error => (error ? reject(error) : resolve()))),
    answer,
    closedByServer,
    destroy: () => socket.destroy(),
  };
}

function parseAnswer(received: Buffer): { headersComplete: boolean; answer?: Omit<RawAnswer, 'elapsedMs'> } {
  const end = received.indexOf('\r\n\r\n');
  if (end === -1) return { headersComplete: false };
  const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = received.subarray(end + 4);
  if (body.length < length) return { headersComplete: true };
  return {
    headersComplete: true,
    answer: { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') },
  };
}
