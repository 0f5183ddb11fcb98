import { assertNever } from '@signalbox/core';
import fc from 'fast-check';
import { binaryCodePoint } from './binary-code-point';
import { FUZZ_ENDPOINTS, type FuzzEndpoint } from './fuzz-endpoints';
import { Fragment, serializeFuzzJSON, serializeWithDuplicateKey, type FuzzJSON } from './serialize-fuzz-json';

/** A request body as fast-check shows it in a counterexample; `bodyBytes` turns it into the wire bytes. */
export type FuzzBody =
  | { kind: 'json-value'; value: FuzzJSON }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'truncated'; seed: number; cut: number }
  | { kind: 'valid'; seed: number; stream: boolean }
  | { kind: 'mutated'; seed: number; mutations: Mutation[]; stream: boolean }
  | { kind: 'duplicate-key'; seed: number; key: number; value: FuzzJSON; duplicateFirst: boolean }
  | { kind: 'extra-field'; seed: number; name: string; value: FuzzJSON; stream: boolean }
  | { kind: 'array-body'; seed: number };

/** One change at the `pick`-th path of the body (paths counted depth-first, the root excluded). */
export type Mutation = { op: 'delete' | 'replace' | 'wrap-in-array'; pick: number; value: FuzzJSON };

/**
 * Fixed odd strings, all shorter than the log audit's 12-character threshold: a constant reused as a
 * prompt in one case and as a (deliberately logged) model ID in another must not look like a leak.
 */
const STRANGE_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800x',
  '\u202eevil',
  '\ufeff',
  '\r\n\r\n',
  '💥'.repeat(5),
  'null',
  '{}',
  '"',
];

/** Strings a parser or validator trips over: unicode of every plane, NUL, lone surrogates, control characters. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: binaryCodePoint, maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(...STRANGE_STRINGS),
);

/** Deepest nesting generated (free-form JSON this deep once overflowed the stack: a 500). */
export const MAX_FUZZ_DEPTH = 20_000;

/** Unbiased, so two cases practically never share a salted string. */
const salt = fc.noBias(fc.nat());

/** Leaves no `JSON.stringify` of a small value produces: deep nesting, huge strings and numbers, bad UTF-8. */
export const fragment: fc.Arbitrary<Fragment> = fc.oneof(
  fc.integer({ min: 100, max: MAX_FUZZ_DEPTH }).map(size => new Fragment('deep-array', size)),
  fc.integer({ min: 100, max: MAX_FUZZ_DEPTH }).map(size => new Fragment('deep-object', size)),
  fc
    .tuple(fc.integer({ min: 10_000, max: 800_000 }), salt)
    .map(([size, value]) => new Fragment('huge-string', size, value)),
  fc.integer({ min: 300, max: 99_999 }).map(size => new Fragment('huge-number', size)),
  fc.integer({ min: 17, max: 5000 }).map(size => new Fragment('big-integer', size)),
  fc.constant(new Fragment('negative-zero', 0)),
  salt.map(value => new Fragment('invalid-utf8-string', 0, value)),
  fc.tuple(fc.nat(100), salt).map(([size, value]) => new Fragment('nul-string', size, value)),
);

/** Values of the wrong type for any field. */
const wrongType: fc.Arbitrary<FuzzJSON> = fc.oneof(
  fc.constantFrom<FuzzJSON>(
    null,
    true,
    false,
    0,
    -1,
    2 ** 31,
    2 ** 53 + 2,
    1e308,
    -1e308,
    0.5,
    [],
    {},
    [{}],
    [[]],
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** What a mutation puts in place of a field. */
export const nastyValue: fc.Arbitrary<FuzzJSON> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<FuzzJSON> },
  { weight: 3, arbitrary: wrongType },
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: fragment },
);

const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom<Mutation['op']>('delete', 'replace', 'replace', 'wrap-in-array'),
  pick: fc.nat(),
  value: nastyValue,
});

/** Field names for an extra field: random, prototype-polluting, or the name of a real field elsewhere. */
const fieldName: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: binaryCodePoint, maxLength: 10 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'input',
    'messages',
    'max_tokens',
    'stream',
    'model',
  ),
);

/** Every kind of body the bodies property sends, mutated seeds most often (seeds are resolved per endpoint). */
export const fuzzBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.record({
    kind: fc.constant('json-value' as const),
    value: fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<FuzzJSON>,
  }),
  fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 300 }) }),
  fc.record({ kind: fc.constant('truncated' as const), seed: fc.nat(), cut: fc.nat() }),
  fc.record({ kind: fc.constant('valid' as const), seed: fc.nat(), stream: fc.boolean() }),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('mutated' as const),
      seed: fc.nat(),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
      stream: fc.boolean(),
    }),
  },
  fc.record({
    kind: fc.constant('duplicate-key' as const),
    seed: fc.nat(),
    key: fc.nat(),
    value: nastyValue,
    duplicateFirst: fc.boolean(),
  }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra-field' as const),
      seed: fc.nat(),
      name: fieldName,
      value: nastyValue,
      stream: fc.boolean(),
    }),
  },
  fc.record({ kind: fc.constant('array-body' as const), seed: fc.nat() }),
);

/** The seed bodies an endpoint's fuzz bodies start from (the model list borrows the Responses ones). */
export function seedsOf(endpoint: FuzzEndpoint): readonly Record<string, unknown>[] {
  return endpoint.seeds.length > 0 ? endpoint.seeds : FUZZ_ENDPOINTS[0]!.seeds;
}

/** The wire bytes of a fuzz body for an endpoint. */
export function bodyBytes(endpoint: FuzzEndpoint, body: FuzzBody): Buffer {
  const seeds = seedsOf(endpoint);
  const seedOf = (index: number) => structuredClone(seeds[index % seeds.length]!) as Record<string, FuzzJSON>;
  // A protocol that asks for a stream by path (`streamPath`) has no `stream` field.
  const streamInBody = 'stream' in body && body.stream && endpoint.streamPath === undefined;
  switch (body.kind) {
    case 'json-value':
      return serializeFuzzJSON(body.value);
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'truncated': {
      const text = serializeFuzzJSON(seedOf(body.seed));
      return text.subarray(0, body.cut % text.length);
    }
    case 'valid':
      return serializeFuzzJSON(withStream(seedOf(body.seed), streamInBody));
    case 'mutated':
      return serializeFuzzJSON(withStream(applyMutations(seedOf(body.seed), body.mutations), streamInBody));
    case 'duplicate-key': {
      const seed = seedOf(body.seed);
      const keys = Object.keys(seed);
      return serializeWithDuplicateKey(seed, keys[body.key % keys.length]!, body.value, body.duplicateFirst);
    }
    case 'extra-field':
      return serializeFuzzJSON(withStream({ ...seedOf(body.seed), [body.name]: body.value }, streamInBody));
    case 'array-body':
      return serializeFuzzJSON([seedOf(body.seed)]);
    default:
      return assertNever(body, 'fuzz body');
  }
}

function withStream(value: FuzzJSON, stream: boolean): FuzzJSON {
  return stream && isObject(value) ? { ...value, stream: true } : value;
}

/** Applies mutations in order; each picks among the paths of the body as it is at that moment. */
export function applyMutations(body: FuzzJSON, mutations: readonly Mutation[]): FuzzJSON {
  let current = body;
  for (const change of mutations) {
    const paths = listPaths(current);
    if (paths.length === 0) break;
    const path = paths[change.pick % paths.length]!;
    current = changeAt(current, path, change);
  }
  return current;
}

/** Every path of a value's members, depth first (the root excluded; fragments are leaves). */
export function listPaths(
  value: FuzzJSON,
  prefix: readonly (string | number)[] = [],
): Array<readonly (string | number)[]> {
  if (value instanceof Fragment || typeof value !== 'object' || value === null) return [];
  const entries: Array<[string | number, FuzzJSON]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...prefix, key], ...listPaths(item, [...prefix, key])]);
}

function changeAt(root: FuzzJSON, path: readonly (string | number)[], change: Mutation): FuzzJSON {
  const parent = path
    .slice(0, -1)
    .reduce<FuzzJSON>((node, key) => (node as Record<string | number, FuzzJSON>)[key]!, root);
  const key = path[path.length - 1]!;
  const container = parent as Record<string | number, FuzzJSON>;
  if (change.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete container[key];
  } else if (change.op === 'replace') container[key] = change.value;
  else container[key] = [container[key]!];
  return root;
}

function isObject(value: FuzzJSON): value is Record<string, FuzzJSON> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Fragment);
}
