import { formatSSEComment } from './format-sse-frame';

export type KeepAlive = {
  /** Call after every write: the timer restarts, so pings go out only during silences. */
  touch(): void;
  stop(): void;
};

/**
 * Writes `: keep-alive` comment frames while a stream is silent for `intervalMs`, so proxies and
 * clients do not time out during long upstream pauses. Not on the data path: a timer, reset by writes.
 */
export function createKeepAlive(write: (frame: string) => void, intervalMs: number): KeepAlive {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(() => {
      write(formatSSEComment('keep-alive'));
      arm();
    }, intervalMs);
    timer.unref();
  };
  if (intervalMs > 0) arm();
  return {
    touch() {
      if (timer) timer.refresh();
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
