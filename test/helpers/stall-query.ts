import pg from 'pg';

/**
 * A `pg` query held back: `reached` once one waits, `release()` lets it run, `fail(error)` rejects
 * it instead (without running it), `answered` once its answer was handled.
 */
export type StalledQuery = { reached: Promise<void>; release(): void; fail(error: Error): void; answered: Promise<void> };

/** The text of a query as `pg` is given it: a string, or a config object with `text`. */
export function queryText(query: unknown): string | undefined {
  if (typeof query === 'string') return query;
  const text = (query as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : undefined;
}

/**
 * Holds the first `pg` query of exactly `text` (given as a string or as a config's `text`) from now
 * on until `release()` or `fail()`; released, it then runs as asked. `answered` settles after the
 * caller's own continuation of that query has run (it is queued after the caller's). Undone by
 * `jest.restoreAllMocks()`.
 */
export function stallQuery(text: string): StalledQuery {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  let reach!: () => void;
  let release!: () => void;
  let fail!: (error: Error) => void;
  let answer!: (held: { running: Promise<unknown> }) => void;
  const reached = new Promise<void>(resolve => (reach = resolve));
  const released = new Promise<void>((resolve, reject) => ((release = resolve), (fail = reject)));
  const held = new Promise<{ running: Promise<unknown> }>(resolve => (answer = resolve));
  let stalled = false;
  jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    if (stalled || queryText(args[0]) !== text) return query.apply(this, args);
    stalled = true;
    reach();
    const callback = args.at(-1);
    const running = released.then(
      () => query.apply(this, args),
      (error: unknown) => {
        // A pool passes a callback (and takes its client back through it); a direct caller gets the rejection.
        if (typeof callback !== 'function') throw error;
        (callback as (error: unknown) => void)(error);
      },
    );
    answer({ running });
    return running;
  } as typeof pg.Client.prototype.query);
  const answered = held.then(({ running }) => running).then(
    () => undefined,
    () => undefined,
  );
  return { reached, release, fail, answered };
}
