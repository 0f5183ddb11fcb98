import type { UpstreamResponse } from './upstream-response';

/** A Node readable, such as the body undici answers with: read through its `data` events. */
type NodeReadable = UpstreamResponse['body'] & {
  on(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(error?: Error): unknown;
  [READER]?: ReadableChunks;
};

const READER = Symbol('signalbox.chunkReader');
const DONE: IteratorResult<Uint8Array> = Object.freeze({ done: true, value: undefined });

/**
 * The chunks of an upstream body, one `next()` at a time. A Node readable (undici's body) is read
 * through its `data` events and paused while a chunk waits for its `next()`: no async generator,
 * `readable` event and `read()` per chunk as its own iterator has. Anything else is iterated as is.
 */
export function readBodyChunks(body: UpstreamResponse['body']): AsyncIterator<Uint8Array> {
  return isNodeReadable(body) ? new ReadableChunks(body) : body[Symbol.asyncIterator]();
}

function isNodeReadable(body: UpstreamResponse['body']): body is NodeReadable {
  const candidate = body as Partial<NodeReadable>;
  return typeof candidate.on === 'function' && typeof candidate.pause === 'function' && typeof candidate.resume === 'function';
}

/**
 * What the body's own iterator promises, met with one listener of each kind shared by every body
 * (each finds its reader on the body): chunks in order, the body's error (which drops chunks not
 * yet taken), a close before the end as a premature close, and `return()` destroying an unfinished body.
 */
class ReadableChunks implements AsyncIterator<Uint8Array> {
  readonly #body: NodeReadable;
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #error: unknown = undefined;
  #waiter: { resolve(result: IteratorResult<Uint8Array>): void; reject(error: unknown): void } | undefined;

  constructor(body: NodeReadable) {
    this.#body = body;
    body[READER] = this;
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#error !== undefined) return Promise.reject(this.#error);
    const chunk = this.#chunks.shift();
    if (chunk !== undefined) {
      if (this.#chunks.length === 0 && !this.#ended) this.#body.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.#ended) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.#ended && this.#error === undefined) this.#body.destroy();
    this.#ended = true;
    this.#chunks.length = 0;
    this.#settle(DONE);
    return Promise.resolve(DONE);
  }

  /** A chunk the body emitted: to the waiting `next()`, else kept with the body paused. */
  arrived(chunk: Uint8Array): void {
    if (this.#waiter) return this.#settle({ done: false, value: chunk });
    this.#chunks.push(chunk);
    this.#body.pause();
  }

  ended(): void {
    this.#ended = true;
    if (this.#chunks.length === 0) this.#settle(DONE);
  }

  /** The body closed: before its end and without an error of its own, a premature close as Node's `finished` reports it. */
  closed(): void {
    if (!this.#ended && this.#error === undefined) this.failed(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  }

  failed(error: unknown): void {
    if (this.#ended || this.#error !== undefined) return;
    this.#error = error;
    this.#chunks.length = 0;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
  }

  #settle(result: IteratorResult<Uint8Array>): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve(result);
  }
}

function onData(this: NodeReadable, chunk: Uint8Array): void {
  this[READER]?.arrived(chunk);
}

function onEnd(this: NodeReadable): void {
  this[READER]?.ended();
}

function onError(this: NodeReadable, error: unknown): void {
  this[READER]?.failed(error);
}

function onClose(this: NodeReadable): void {
  this[READER]?.closed();
}
