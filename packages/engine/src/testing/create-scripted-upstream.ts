import type { JSONObject } from '@signalbox/core';
import {
  mapTransportError,
  type UpstreamClient,
  type UpstreamClientOptions,
  type UpstreamResponse,
} from '@signalbox/upstream';

/**
 * One answer an upstream gives, in the order the calls arrive. The body is sent as UTF-8 bytes, in
 * one piece, in pieces of `chunkSize` bytes (which may cut inside a character), or as the given
 * `chunks`; after its last byte the body ends, fails with a transport error, or hangs until the
 * call is aborted or the reader lets it go.
 */
export type ScriptedAnswer = {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  chunks?: readonly string[];
  /** The body as these bytes (a binary framing), instead of `body` or `chunks`. */
  byteChunks?: readonly Uint8Array[];
  chunkSize?: number;
  /** The body waits before its chunk of index `before` until `until` resolves (a stream held open while a test acts). */
  pause?: { before: number; until: Promise<void> };
  /** What happens after the last chunk. Default `'end'`. */
  then?: 'end' | 'hang' | { transportError: Error };
  /** The call fails before any answer (connection refused, headers timeout): `send` rejects. */
  sendError?: Error;
};

/** What one call sent, and what became of its answer's body. */
export type ScriptedCall = {
  upstream: string;
  /** The name of the upstream's credential the call was made with (`default` for a pool of one). */
  credential: string;
  path: string;
  /** The per-request headers the engine added to the client's configured ones. */
  headers: Record<string, string>;
  /** The JSON body the engine sent. */
  body: JSONObject;
  signal: AbortSignal | undefined;
  /** The reader let the body go (`return()` on its iterator) before its end. */
  bodyClosed: boolean;
};

export type ScriptedUpstream = UpstreamClient & {
  readonly name: string;
  /** The options the engine opened this client with (base URL, headers, timeouts). */
  readonly options: UpstreamClientOptions;
  readonly calls: ScriptedCall[];
  /** Answers not yet given. */
  readonly remaining: readonly ScriptedAnswer[];
  closed: boolean;
};

/**
 * An `UpstreamClient` that gives scripted answers instead of opening sockets. Every call is kept
 * (in `calls`, and in `log` when several upstreams share one); a call beyond the script fails the
 * test loudly. Transport failures go through the real client's `mapTransportError`, so they reach
 * the engine exactly as an undici failure would.
 */
export function createScriptedUpstream(
  name: string,
  options: UpstreamClientOptions,
  answers: readonly ScriptedAnswer[],
  log: ScriptedCall[] = [],
  credential = 'default',
): ScriptedUpstream {
  const remaining = [...answers];
  const calls: ScriptedCall[] = [];
  const upstream: ScriptedUpstream = {
    name,
    options,
    calls,
    remaining,
    closed: false,
    baseURL: options.baseURL,
    async send(request, signal) {
      const answer = remaining.shift();
      if (!answer) throw new Error(`The upstream '${name}' was called more often than its script allows.`);
      const call: ScriptedCall = { upstream: name, credential, path: request.path, headers: request.headers ?? {}, body: JSON.parse(request.body), signal, bodyClosed: false };
      calls.push(call);
      log.push(call);
      if (signal?.aborted) throw mapTransportError(signal.reason, signal);
      if (answer.sendError) throw mapTransportError(answer.sendError, signal);
      return scriptedResponse(answer, call, signal);
    },
    async close() {
      upstream.closed = true;
    },
  };
  return upstream;
}

/** A transport failure as undici reports it: an error with a `code` (`UND_ERR_SOCKET`, `ECONNREFUSED`, …). */
export function transportError(code: string): Error {
  return Object.assign(new Error(`transport failure ${code}`), { code });
}

const encoder = new TextEncoder();

function chunksOf(answer: ScriptedAnswer): Uint8Array[] {
  if (answer.byteChunks) return [...answer.byteChunks];
  if (answer.chunks) return answer.chunks.map(chunk => encoder.encode(chunk));
  const bytes = encoder.encode(answer.body ?? '');
  if (bytes.length === 0) return [];
  const size = answer.chunkSize ?? bytes.length;
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

function scriptedResponse(answer: ScriptedAnswer, call: ScriptedCall, signal: AbortSignal | undefined): UpstreamResponse {
  const chunks = chunksOf(answer);
  const ending = answer.then ?? 'end';
  const body = { [Symbol.asyncIterator]: () => scriptedBody(chunks, ending, call, signal, answer.pause) };
  return {
    status: answer.status ?? 200,
    headers: { ...answer.headers },
    body,
    async text() {
      const parts: Uint8Array[] = [];
      try {
        for await (const chunk of body) parts.push(chunk);
      } catch (error) {
        throw mapTransportError(error, signal);
      }
      return Buffer.concat(parts).toString('utf8');
    },
  };
}

/**
 * The body as an async iterator written by hand (not a generator), so `return()` lets a hanging
 * body go at once, as undici's does. A transport failure and an abort are thrown raw, as undici
 * throws them; the engine maps them itself.
 */
function scriptedBody(
  chunks: readonly Uint8Array[],
  ending: NonNullable<ScriptedAnswer['then']>,
  call: ScriptedCall,
  signal: AbortSignal | undefined,
  pause?: ScriptedAnswer['pause'],
): AsyncIterator<Uint8Array> {
  let index = 0;
  let paused = false;
  let finished = false;
  let letGo: (() => void) | undefined;
  const done = (): IteratorReturnResult<undefined> => ({ done: true, value: undefined });
  return {
    async next() {
      if (finished) return done();
      if (pause && !paused && index === pause.before) {
        paused = true;
        await pause.until;
      }
      if (index < chunks.length) return { done: false, value: chunks[index++]! };
      if (ending === 'end') {
        finished = true;
        return done();
      }
      if (ending !== 'hang') {
        finished = true;
        throw ending.transportError;
      }
      await new Promise<void>((resolve, reject) => {
        letGo = resolve;
        const abort = () => reject(Object.assign(new Error('This operation was aborted'), { name: 'AbortError', cause: signal?.reason }));
        if (signal?.aborted) abort();
        signal?.addEventListener('abort', abort, { once: true });
      });
      return done();
    },
    async return() {
      if (!finished) call.bodyClosed = true;
      finished = true;
      letGo?.();
      return done();
    },
  };
}
