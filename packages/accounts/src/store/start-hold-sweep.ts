/**
 * Runs `release(now())` every `intervalMs` (0 turns the sweep off) and returns the function that
 * stops it. The timer is `unref`'d, so an open store never keeps a process alive; a failing sweep is
 * handed to `onError` and the next one runs as usual.
 */
export function startHoldSweep(
  release: (now: number) => Promise<unknown>,
  options: { intervalMs: number; now: () => number; onError?: (error: unknown) => void },
): () => void {
  if (!(options.intervalMs > 0)) return () => undefined;
  const timer = setInterval(() => {
    release(options.now()).catch(error => options.onError?.(error));
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
