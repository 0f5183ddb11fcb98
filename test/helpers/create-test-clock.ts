import type { Clock } from '@signalbox/engine';

/**
 * The gateway's clock in tests: real time plus whatever the test (or a recorded sleep) added. Its
 * timers run when that time reaches them, by real time passing or by `advance`, whichever comes
 * first, so a test moves deadlines and queue waits on instead of waiting them out.
 */
export type TestClock = Clock & {
  /** Moves the gateway's time forward by `ms` at once (rate windows, quota periods, key expiry), running every timer due by then. */
  advance(ms: number): void;
  /** The delays, in ms, of the timers scheduled and neither run nor cancelled yet. */
  waiting(): number[];
};

type Timer = { dueAt: number; delay: number; callback: () => void; handle?: NodeJS.Timeout };

/**
 * A `TestClock` whose `sleep` records each wait in `sleeps`, moves the clock on by it and resolves
 * at the next turn; like a real timer it rejects with the signal's reason when the request was
 * aborted before or while it "waits".
 */
export function createTestClock(sleeps: number[] = []): TestClock {
  let offset = 0;
  const now = () => Date.now() + offset;
  const timers = new Set<Timer>();
  const fire = (timer: Timer) => {
    if (!timers.delete(timer)) return;
    clearTimeout(timer.handle);
    timer.callback();
  };
  const clock: TestClock = {
    now,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
      clock.advance(ms);
      await new Promise(resolve => setImmediate(resolve));
      signal?.throwIfAborted();
    },
    schedule(callback, ms) {
      const timer: Timer = { dueAt: now() + ms, delay: ms, callback };
      timer.handle = setTimeout(() => fire(timer), ms);
      timers.add(timer);
      return () => {
        timers.delete(timer);
        clearTimeout(timer.handle);
      };
    },
    advance(ms) {
      offset += ms;
      const due = [...timers].filter(timer => timer.dueAt <= now()).sort((first, second) => first.dueAt - second.dueAt);
      for (const timer of due) fire(timer);
    },
    waiting: () => [...timers].map(timer => timer.delay),
  };
  return clock;
}
