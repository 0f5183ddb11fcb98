import type { Schedule } from '../clock/clock';

export type ManualSchedule = {
  schedule: Schedule;
  /** The delays, in ms, of the callbacks scheduled and neither run nor cancelled yet. */
  waiting(): number[];
  /** Moves the schedule's time on by `ms` and runs, in order, every callback due by then. */
  advance(ms: number): void;
};

/** A `Schedule` on a time that only `advance` moves: deadlines and graces without real waits. */
export function createManualSchedule(): ManualSchedule {
  let elapsed = 0;
  const entries = new Set<{ dueAt: number; delay: number; callback: () => void }>();
  return {
    schedule(callback, ms) {
      const entry = { dueAt: elapsed + ms, delay: ms, callback };
      entries.add(entry);
      return () => void entries.delete(entry);
    },
    waiting: () => [...entries].map(entry => entry.delay),
    advance(ms) {
      elapsed += ms;
      const due = [...entries].filter(entry => entry.dueAt <= elapsed).sort((a, b) => a.dueAt - b.dueAt);
      for (const entry of due) {
        if (!entries.delete(entry)) continue;
        entry.callback();
      }
    },
  };
}
