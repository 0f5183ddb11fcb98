/** One cleanup a store runs on its timer: given the time, it deletes or releases what expired by then. */
export type StoreSweep = (now: number) => Promise<unknown>;

/**
 * Runs every sweep with `now()` every `intervalMs` (0 turns the timer off) and returns the function
 * that stops it. The stores give it their hold release and their expired-response deletion, so one
 * timer does both. The timer is `unref`'d, so an open store never keeps a process alive; a failing
 * sweep is handed to `onError` without stopping the others, and the next tick runs them all as usual.
 */
export function startStoreSweep(
  sweeps: readonly StoreSweep[],
  options: { intervalMs: number; now: () => number; onError?: (error: unknown) => void },
): () => void {
  if (!(options.intervalMs > 0)) return () => undefined;
  const timer = setInterval(() => {
    const at = options.now();
    for (const sweep of sweeps) {
      Promise.resolve(at)
        .then(sweep)
        .catch(error => options.onError?.(error));
    }
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
