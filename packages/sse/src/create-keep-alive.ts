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
  // Heard at the start: a stream silent from its first byte is pinged after a whole interval, too.
  let heard = true;
  let timer: NodeJS.Timeout | undefined;
  if (intervalMs > 0) {
    timer = setInterval(() => {
      // A ping counts as heard too: a long silence gets one ping per interval, not one per tick.
      if (!heard) write(formatSSEComment('keep-alive'));
      heard = !heard;
    }, Math.max(1, Math.floor(intervalMs / 2)));
    timer.unref();
  }
  return {
    touch() {
      heard = true;
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
