import fc from 'fast-check';
import { GatewayError, type StreamEvent } from '@signalbox/core';

/**
 * Below this many cases (`SIGNALBOX_FUZZ_RUNS` set low) a sample says too little about how often the
 * generator reaches the fast path, so that is not checked.
 */
const MIN_RUNS_FOR_REACH = 200;

/** The part of a zod schema the properties use. */
type Schema = { safeParse(value: unknown): { success: boolean; data?: unknown } };

/**
 * Whatever the fast path `read` takes, `schema` takes too, with an equal value (`strict`: member for
 * member; otherwise up to `undefined` members, since a copy has every field the schema keeps, the
 * absent ones `undefined`). The generator must reach the fast path in one case in twenty at least
 * (at full strength).
 */
export function checkFastPathAgainstSchema(
  values: fc.Arbitrary<unknown>,
  read: (value: never) => unknown,
  schema: Schema,
  runs: number,
  strict = false,
): void {
  let taken = 0;
  fc.assert(
    fc.property(values, value => {
      const fast = read(value as never);
      if (fast === undefined) return;
      taken++;
      const parsed = schema.safeParse(value);
      expect(parsed.success).toBe(true);
      if (strict) expect(fast).toStrictEqual(parsed.data);
      else expect(fast).toEqual(parsed.data);
    }),
    { numRuns: runs },
  );
  if (runs >= MIN_RUNS_FOR_REACH) expect(taken).toBeGreaterThan(runs / 20);
}

/** The fast paths' switch: one per test file, since each file has a module registry of its own. */
const fastPaths = { on: true, callsWhileOff: 0 };

/**
 * The fast-path module at `path` (relative to this folder) with each function answering `undefined`
 * while the switch is off, so its decoder leaves every value to the schema: a test file's `jest.mock`
 * factory, `() => jest.requireActual<…>('./fast-path-properties').switchableModule(path)`.
 */
export function switchableModule(path: string): Record<string, unknown> {
  const module = jest.requireActual<Record<string, unknown>>(path);
  const switchable: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(module)) {
    if (typeof value !== 'function') switchable[name] = value;
    else switchable[name] = (...args: unknown[]) => (fastPaths.on ? (value as (...values: unknown[]) => unknown)(...args) : (fastPaths.callsWhileOff++, undefined));
  }
  return switchable;
}

/**
 * `decode` has the same outcome (value, or refusal code and message) with the fast path on as with
 * it off (`switchableModule`); at full strength, the decoder is seen asking the switched-off path.
 */
export function checkSameDecoding<Value>(values: fc.Arbitrary<Value>, decode: (value: Value) => unknown, runs: number): void {
  const askedBefore = fastPaths.callsWhileOff;
  fc.assert(
    fc.property(values, value => {
      fastPaths.on = true;
      const withFastPath = outcomeOf(() => decode(value));
      fastPaths.on = false;
      try {
        expect(outcomeOf(() => decode(value))).toEqual(withFastPath);
      } finally {
        fastPaths.on = true;
      }
    }),
    { numRuns: runs },
  );
  if (runs >= MIN_RUNS_FOR_REACH) expect(fastPaths.callsWhileOff).toBeGreaterThan(askedBefore);
}

/** What `run` returns, or the code and message of the error it throws. */
export function outcomeOf(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return GatewayError.isInstance(error) ? { code: error.code, message: error.message } : { thrown: String(error) };
  }
}

/** A decoder's event with its error, if any, reduced to code and message, so runs of two decoders compare. */
export const plainEvent = (event: StreamEvent): unknown =>
  event.type === 'error' ? { type: 'error', code: event.error.code, message: event.error.message } : event;
