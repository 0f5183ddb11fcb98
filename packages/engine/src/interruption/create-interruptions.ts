import type { Clock } from '../clock/clock';
import { deadlinePassed, shuttingDown } from './interruption-errors';

/**
 * One generation the engine may end on its own. Its `signal` aborts, with the `GatewayError` the
 * client is to be told as the reason, when the engine's drain runs out of grace or the request's
 * deadline passes.
 */
export type Interruption = {
  readonly signal: AbortSignal;
  /** Ends the request `deadlineMs` after it started, wherever it is by then. */
  setDeadline(deadlineMs: number): void;
  /** The request is settled: stop watching it (its deadline is cancelled). Idempotent. */
  release(): void;
};

/** Every generation in flight in one engine, and the way to end them all at shutdown. */
export type Interruptions = {
  /**
   * Starts watching a generation that started at `startedAt` (on the engine's clock). Throws 503
   * `SHUTTING_DOWN` once a drain has begun: the gateway takes no new generations.
   */
  watch(startedAt: number): Interruption;
  /**
   * Refuses new generations, lets open ones run for up to `graceMs`, then interrupts the rest with
   * `SHUTTING_DOWN`, and resolves once every one of them is settled (its record written, its hold
   * released).
   */
  drain(graceMs: number): Promise<void>;
};

type Watched = Interruption & { interrupt(reason: Error): void };

export function createInterruptions(clock: Pick<Clock, 'now' | 'schedule'>): Interruptions {
  const open = new Set<Watched>();
  let draining = false;
  let whenEmpty: (() => void)[] = [];
  const allSettled = (): Promise<void> => (open.size === 0 ? Promise.resolve() : new Promise(resolve => whenEmpty.push(resolve)));

  const watch = (startedAt: number): Interruption => {
    if (draining) throw shuttingDown();
    const controller = new AbortController();
    let cancelDeadline = (): void => undefined;
    const watched: Watched = {
      signal: controller.signal,
      interrupt(reason) {
        if (!controller.signal.aborted) controller.abort(reason);
      },
      setDeadline(deadlineMs) {
        cancelDeadline();
        const remaining = Math.max(0, startedAt + deadlineMs - clock.now());
        cancelDeadline = clock.schedule(() => watched.interrupt(deadlinePassed(deadlineMs)), remaining);
      },
      release() {
        cancelDeadline();
        if (!open.delete(watched) || open.size > 0) return;
        const waiting = whenEmpty;
        whenEmpty = [];
        for (const resolve of waiting) resolve();
      },
    };
    open.add(watched);
    return watched;
  };

  return {
    watch,
    async drain(graceMs) {
      draining = true;
      let cancelGrace = (): void => undefined;
      const graceOver = new Promise<void>(resolve => {
        cancelGrace = clock.schedule(resolve, graceMs);
      });
      await Promise.race([allSettled(), graceOver]);
      cancelGrace();
      const reason = shuttingDown();
      for (const watched of open) watched.interrupt(reason);
      await allSettled();
    },
  };
}
