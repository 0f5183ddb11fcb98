import type { Readable } from 'node:stream';

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/** What wakes a waiting read: data, the end, a failure, the stream going away. */
const WAKING_EVENTS = ['readable', 'end', 'error', 'close'] as const;

/**
 * An upstream answer's body as the engine reads it, one chunk per `next()`: one object and one
 * listener per stream, where Node's async iterator over a `Readable` holds a generator, its
 * promises and an end-of-stream watcher of several closures for as long as a stream stays open.
 * It reads as that iterator does: a failure rejects with the stream's error, a stream that closes
 * before its end with a premature close, `return()` destroys the stream, and once it has ended,
 * failed or been returned every `next()` is done.
 */
export class BodyChunks implements AsyncIterableIterator<Uint8Array> {
  readonly #readable: Readable;
  #listening = false;
  #finished = false;
  #wake: (() => void) | undefined;
  /**
   * The stream's listener, and the executor of the promise a read waits on (the one function of a
   * stream, as in Node's own iterator): given a promise's `resolve`, it keeps it; called by an
   * event, it wakes the waiting read.
   */
  readonly #changed = (resolve?: unknown): void => {
    if (typeof resolve === 'function') {
      this.#wake = resolve as () => void;
      return;
    }
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  };

  constructor(readable: Readable) {
    this.#readable = readable;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    const readable = this.#readable;
    if (!this.#listening) this.#listen();
    for (;;) {
      if (this.#finished) return DONE;
      const chunk = readable.destroyed ? null : (readable.read() as Uint8Array | null);
      if (chunk !== null) return { value: chunk, done: false };
      if (readable.errored || readable.readableEnded || readable.destroyed) return this.#finish(readable.errored ?? (readable.readableEnded ? undefined : prematureClose()));
      await new Promise<void>(this.#changed);
    }
  }

  /** Lets the body go unread: the stream is destroyed, so its connection is not reused with bytes left on it. */
  async return(): Promise<IteratorResult<Uint8Array>> {
    this.#finished = true;
    this.#readable.destroy();
    return DONE;
  }

  /** Destroys the body, as the stream's own `destroy` does. */
  destroy(error?: Error): void {
    this.#readable.destroy(error);
  }

  /** The body is over: done from now on, after rejecting once with `error` if it failed. */
  #finish(error: Error | undefined): IteratorResult<Uint8Array> {
    this.#finished = true;
    if (error) throw error;
    return DONE;
  }

  // Listened to from the first read on, never let go: the body's failures always have a listener.
  #listen(): void {
    this.#listening = true;
    for (const event of WAKING_EVENTS) this.#readable.on(event, this.#changed);
  }
}

/** The error Node's iterator rejects with when a stream closes before its end. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
