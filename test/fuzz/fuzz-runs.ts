/** The environment variable that lowers the number of cases of every fuzz property (local runs). */
export const FUZZ_RUNS_VARIABLE = 'SIGNALBOX_FUZZ_RUNS';

/**
 * The `numRuns` of each property of a fuzz file: the full counts given (what CI runs), or, when
 * `SIGNALBOX_FUZZ_RUNS` is set to a positive whole number, at most that many cases per property.
 * A value that is not a positive whole number fails the run rather than silently running nothing.
 */
export function fuzzRuns<Runs extends Record<string, number>>(full: Runs, environment = process.env): Runs {
  const setting = environment[FUZZ_RUNS_VARIABLE];
  if (setting === undefined || setting === '') return full;
  const cap = Number(setting);
  if (!Number.isInteger(cap) || cap < 1) {
    throw new Error(
      `${FUZZ_RUNS_VARIABLE} must be a positive whole number of cases per property, not ${JSON.stringify(setting)}.`,
    );
  }
  const capped = Object.entries(full).map(([property, runs]) => [property, Math.min(runs, cap)]);
  return Object.fromEntries(capped) as Runs;
}
