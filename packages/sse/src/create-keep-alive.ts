import { formatSSEComment } from './format-sse-frame';

export type KeepAlive = {
  /** Call after every write: the stream counts as heard, so pings go out only during silences. */
  touch(): void;
  stop(): void;
};

/**
 * Writes `: keep-alive` comment frames while a stream is silent, so proxies and clients do not time
 * out during long upstream pauses. A write only marks the stream heard, with no timer re-armed per
 * frame: a tick every half interval pings a stream not heard since the tick before, so no silence
 * lasts `intervalMs` without a ping, and none shorter than half of it gets one.
 */
export function createKeepAlive(write: (frame: string) => void, intervalMs: number): KeepAlive {
  return new IntervalKeepAlive(write, intervalMs);
}

const KEEP_ALIVE_FRAME = formatSSEComment('keep-alive');

/** One object per stream; its timer calls the one `tick` function with it, no closure per stream. */
class IntervalKeepAlive implements KeepAlive {
  // Heard at the start: a stream silent from its first byte is pinged after a whole interval, too.
  heard = true;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly write: (frame: string) => void,
    intervalMs: number,
  ) {
    if (intervalMs <= 0) return;
    this.timer = setInterval(tick, Math.max(1, Math.floor(intervalMs / 2)), this);
    this.timer.unref();
  }

  touch(): void {
    this.heard = true;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

function tick(keepAlive: IntervalKeepAlive): void {
  // A ping counts as heard too: a long silence gets one ping per interval, not one per tick.
  if (!keepAlive.heard) keepAlive.write(KEEP_ALIVE_FRAME);
  keepAlive.heard = !keepAlive.heard;
}
