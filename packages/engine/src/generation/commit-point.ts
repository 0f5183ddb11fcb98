import { ClientAbortedError, GatewayError, type StreamEvent } from '@signalbox/core';
import { mapTransportError, type UpstreamResponse } from '@signalbox/upstream';
import { interruptionOf } from '../interruption/interruption-errors';
import type { StreamPipeline } from './create-stream-pipeline';
import type { FrameSink } from './frame-sink';
import type { FrameTap } from './frame-tap';
import { createStreamObserver, type StreamOutcome } from './stream-observer';

type ChunkIterator = AsyncIterator<Uint8Array>;

/** An upstream stream read up to its commit point: the events so far and the rest of the body. */
export type OpenedStream = { pending: StreamEvent[]; iterator: ChunkIterator; ended: boolean };

/** Events after which the answer has begun: from here on failures travel inside the stream. */
function isCommitPoint(event: StreamEvent): boolean {
  return event.type !== 'response-start' && event.type !== 'error';
}

/**
 * Reads an upstream stream until the answer begins. An upstream that fails before that (an error
 * event after its HTTP 200, or a body that ends early) throws here, while a proper HTTP status can
 * still be sent and the attempt can still be retried.
 */
export async function readToCommitPoint(
  response: UpstreamResponse,
  pipeline: StreamPipeline,
  signal: AbortSignal,
): Promise<OpenedStream> {
  const iterator = response.body[Symbol.asyncIterator]();
  const pending: StreamEvent[] = [];
  try {
    for (;;) {
      const next = await readNext(iterator, signal);
      const events = next.done ? pipeline.finishDecoding() : pipeline.decode(next.value);
      let committed = false;
      for (const event of events) {
        if (event.type === 'error' && !pending.some(isCommitPoint)) throw event.error;
        pending.push(event);
        committed ||= isCommitPoint(event);
      }
      if (committed || next.done) return { pending, iterator, ended: next.done === true };
    }
  } catch (error) {
    void iterator.return?.();
    throw error;
  }
}

/**
 * Forwards the rest of an opened stream to the client as each chunk arrives and resolves to how it
 * ended. Failures after the commit point become the client protocol's terminal error event (and
 * the outcome's `error`); a client that goes away ends it quietly (`clientAborted`). A signal aborted
 * with a `GatewayError` is the gateway ending the stream itself (shutdown, deadline): that error is
 * the terminal event (`interrupted`). `tap.beforeEnd` runs once the terminal event is encoded and
 * before its text is written; `recordProof` gets each reasoning proof the stream carries. Never rejects.
 */
export async function pipeCommittedStream(
  opened: OpenedStream,
  pipeline: StreamPipeline,
  sink: FrameSink,
  signal: AbortSignal,
  tap?: FrameTap,
  recordProof?: (proof: string) => void,
): Promise<StreamOutcome> {
  const observer = createStreamObserver(recordProof);
  // Plain functions, not async ones: a frame written without backpressure costs no promise.
  const send = (text: string): Promise<void> | undefined => (text !== '' && !sink.write(text) ? sink.drained() : undefined);
  const forward = (events: readonly StreamEvent[]): Promise<void> | undefined => {
    const text = pipeline.encode(observer.observe(events));
    return observer.terminated && tap ? tap.beforeEnd().then(() => send(text)) : send(text);
  };
  try {
    let waiting = forward(takePending(opened));
    if (waiting) await waiting;
    let ended = opened.ended;
    while (!observer.terminated && !ended) {
      // Read here rather than through readNext: one promise fewer per chunk.
      let next: IteratorResult<Uint8Array>;
      try {
        next = await opened.iterator.next();
      } catch (error) {
        throw mapTransportError(error, signal);
      }
      ended = next.done === true;
      waiting = forward(ended ? pipeline.finishDecoding() : pipeline.decode(next.value!));
      if (waiting) await waiting;
    }
    await send(pipeline.finishEncoding());
    return observer.outcome(false);
  } catch (error) {
    const interruption = interruptionOf(signal);
    if (!interruption && (ClientAbortedError.isInstance(error) || signal.aborted)) return observer.outcome(true);
    const failure = interruption ?? GatewayError.from(error);
    try {
      await send(pipeline.encode(observer.observe([{ type: 'error', error: failure }])) + pipeline.finishEncoding());
    } catch {
      // The client went away before its terminal error: nothing more to tell it.
    }
    return observer.outcome(!interruption && signal.aborted, interruption !== undefined);
  } finally {
    void drainQuietly(opened.iterator);
  }
}

/** The events read before the commit point, handed on once: an open stream keeps none of them. */
function takePending(opened: OpenedStream): StreamEvent[] {
  const { pending } = opened;
  opened.pending = [];
  return pending;
}

/** Lets an opened stream go without reading it (its answer will never be sent). */
export function abandonStream(opened: OpenedStream): void {
  void opened.iterator.return?.()?.catch(() => undefined);
}

async function readNext(iterator: ChunkIterator, signal: AbortSignal): Promise<IteratorResult<Uint8Array>> {
  try {
    return await iterator.next();
  } catch (error) {
    throw mapTransportError(error, signal);
  }
}

/** Reads what an upstream sends after its terminal event (usually nothing), so the connection can be reused. */
async function drainQuietly(iterator: ChunkIterator): Promise<void> {
  const deadline = setTimeout(() => void iterator.return?.(), 2_000);
  try {
    for (let chunks = 0; chunks < 64; chunks++) if ((await iterator.next()).done) return;
    await iterator.return?.();
  } catch {
    // The upstream connection is being torn down; nothing to keep.
  } finally {
    clearTimeout(deadline);
  }
}
