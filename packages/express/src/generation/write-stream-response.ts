import { once } from 'node:events';
import type { FrameSink, StreamOutcome } from '@signalbox/engine';
import { createKeepAlive, type KeepAlive } from '@signalbox/sse';
import type { Response } from 'express';

/**
 * Sends SSE headers, or `contentType` for a stream framed otherwise (in one write with the first frames, when `pipe` writes them at once), then
 * lets `pipe` write frames as they are produced: no buffering, no `cork()`, backpressure through
 * `drain`, keep-alive comments only while the stream is silent. Resolves to how the stream ended.
 */
export async function writeStreamResponse(
  response: Response,
  pipe: (sink: FrameSink) => Promise<StreamOutcome>,
  options: { signal: AbortSignal; keepAliveMs: number; contentType?: string },
): Promise<StreamOutcome> {
  response.status(200);
  // A stream framed otherwise than as SSE (a Gemini JSON array) has its own content type and takes no comments.
  response.setHeader('content-type', options.contentType ?? 'text/event-stream; charset=utf-8');
  response.setHeader('cache-control', 'no-cache');
  response.setHeader('x-accel-buffering', 'no');
  const keepAlive = createKeepAlive(response, options.contentType === undefined ? options.keepAliveMs : 0);
  const sink = new ResponseFrameSink(response, keepAlive, options.signal);
  try {
    const piping = pipe(sink);
    // The frames read before the commit point are written at once, inside `pipe`: the headers go
    // out with them in one write. A stream whose first text waits (its end kept first) gets them now.
    if (!response.headersSent) response.flushHeaders();
    return await piping;
  } finally {
    keepAlive.stop();
    response.end();
  }
}

/** The response as the stream's sink: one object per open stream, its methods shared, no closures of its own. */
class ResponseFrameSink implements FrameSink {
  constructor(
    private readonly response: Response,
    private readonly keepAlive: KeepAlive,
    private readonly signal: AbortSignal,
  ) {}

  write(text: string): boolean {
    this.keepAlive.touch();
    return this.response.write(text);
  }

  async drained(): Promise<void> {
    await once(this.response, 'drain', { signal: this.signal });
  }
}
