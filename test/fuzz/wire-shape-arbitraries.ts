import fc from 'fast-check';

/** A value of the wrong kind for almost any wire field (and the nulls some schemas allow). */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 4 }),
  fc.constant([]),
  fc.constant({}),
);

/** Mostly a value of `right`, sometimes one of the wrong kind. */
export const field = (right: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: right, weight: 6 }, { arbitrary: wrongValue, weight: 1 });

/** An object of `shape` with any of its keys but `required` left out, sometimes with fields no schema knows. */
export function objectAround(shape: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.record(shape, { requiredKeys: required }), fc.option(fc.dictionary(fc.constantFrom('extra', 'audio', 'x'), fc.jsonValue({ maxDepth: 1 }))))
    .map(([known, extra]) => ({ ...extra, ...known }));
}

/** Mostly `right`, sometimes `null` or a value of the wrong kind: a nested object's place. */
export const nested = (right: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: right, weight: 8 }, { arbitrary: fc.constant(null), weight: 1 }, { arbitrary: wrongValue, weight: 1 });

/** `value` as the wire carries it: through JSON and back, as a decoder receives it. */
export const throughJSON = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** A count: a small whole number, mostly. */
export const count: fc.Arbitrary<number> = fc.oneof(fc.nat({ max: 5000 }), fc.constant(0));

/** Counters of `names`, each a count, `null` or a wrong value, some left out. */
export const counters = (names: readonly string[]): fc.Arbitrary<Record<string, unknown>> =>
  objectAround(Object.fromEntries(names.map(name => [name, field(fc.oneof(count, fc.constant(null)))])));

/** Mostly left out (`undefined` is dropped on the way through JSON), sometimes one of `values`. */
export const rarely = (...values: unknown[]): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.constantFrom(...values), weight: 1 });

/** Mostly `right`, sometimes one of `misses` (values just outside what a schema takes). */
export const near = (right: fc.Arbitrary<unknown>, ...misses: unknown[]): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: right, weight: 10 }, { arbitrary: fc.constantFrom(...misses), weight: 1 });
