import pg from 'pg';

/** A `pg` query held back: `reached` once one waits, `release()` lets it run, `answered` once its answer was handled. */
export type StalledQuery = { reached: Promise<void>; release(): void; answered: Promise<void> };

/**
 * Holds the first `pg` query of exactly `text` from now on until `release()`; it then runs as asked.
 * `answered` settles after the caller's own continuation of that query has run (it is queued after
 * the caller's). Undone by `jest.restoreAllMocks()`.
 */
export function stallQuery(text: string): StalledQuery {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  let reach!: () => void;
  let release!: () => void;
  let answer!: (held: { running: Promise<unknown> }) => void;
  const reached = new Promise<void>(resolve => (reach = resolve));
  const released = new Promise<void>(resolve => (release = resolve));
  const held = new Promise<{ running: Promise<unknown> }>(resolve => (answer = resolve));
  let stalled = false;
  jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    if (stalled || args[0] !== text) return query.apply(this, args);
    stalled = true;
    reach();
    const running = released.then(() => query.apply(this, args));
    answer({ running });
    return running;
  } as typeof pg.Client.prototype.query);
  const answered = held.then(({ running }) => running).then(() => undefined);
  return { reached, release, answered };
}
