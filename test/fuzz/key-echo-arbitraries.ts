import fc from 'fast-check';
import { seedsOf } from './body-arbitraries';
import type { FuzzEndpoint } from './fuzz-endpoints';

/** Where a key-shaped secret goes in a request. */
export type SecretPlacement =
  | { kind: 'header'; name: string; format: 'bare' | 'bearer' | 'basic' | 'padded' }
  | { kind: 'body-string'; seed: number; pick: number; mode: 'replace' | 'embed' }
  | { kind: 'body-field-name'; seed: number; pick: number }
  | { kind: 'path'; position: 'end' | 'middle' | 'only' }
  | { kind: 'query'; as: 'name' | 'value'; parameter: string };

type Path = ReadonlyArray<string | number>;

/** Headers a secret is put in: the credential headers and the version headers the gateway reads. */
export const secretInHeader: fc.Arbitrary<SecretPlacement> = fc.record({
  kind: fc.constant('header' as const),
  name: fc.constantFrom('authorization', 'x-api-key', 'anthropic-version', 'provider-version'),
  format: fc.constantFrom('bare' as const, 'bearer' as const, 'basic' as const, 'padded' as const),
});

/** Any string value of a seed body, replaced by or embedding the secret. */
export const secretInBodyString: fc.Arbitrary<SecretPlacement> = fc.record({
  kind: fc.constant('body-string' as const),
  seed: fc.nat(),
  pick: fc.nat(),
  mode: fc.constantFrom('replace' as const, 'embed' as const),
});

/** The secret as the name of an extra field of an object in a seed body. */
export const secretAsFieldName: fc.Arbitrary<SecretPlacement> = fc.record({
  kind: fc.constant('body-field-name' as const),
  seed: fc.nat(),
  pick: fc.nat(),
});

/** The secret in a path segment, or in the query as a parameter name or value. */
export const secretInPathOrQuery: fc.Arbitrary<SecretPlacement> = fc.oneof(
  fc.record({
    kind: fc.constant('path' as const),
    position: fc.constantFrom('end' as const, 'middle' as const, 'only' as const),
  }),
  fc.record({
    kind: fc.constant('query' as const),
    as: fc.constantFrom('name' as const, 'value' as const),
    parameter: fc.constantFrom('beta', 'key', 'api_key', 'token', 'q', 'x-api-key'),
  }),
);

/**
 * The body with the secret placed: `pick` chooses among all the spots (string values, objects to
 * add a field to) of all the endpoint's seeds, `model` and `type` values and the top level included.
 */
export function bodyWithSecret(
  endpoint: FuzzEndpoint,
  placement: SecretPlacement,
  secret: string,
): Record<string, unknown> {
  if (placement.kind !== 'body-string' && placement.kind !== 'body-field-name')
    throw new Error(`not a body placement: ${placement.kind}`);
  const seeds = seedsOf(endpoint);
  const spots = seeds.flatMap((seed, index) => {
    const paths = placement.kind === 'body-string' ? stringLeafPaths(seed) : objectPaths(seed);
    return paths.map(path => ({ index, path }));
  });
  const { index, path } = spots[placement.pick % spots.length]!;
  const body = structuredClone(seeds[index]!) as Record<string | number, unknown>;
  if (placement.kind === 'body-field-name') {
    nodeAt(body, path)[secret] = 'x';
    return body as Record<string, unknown>;
  }
  const parent = nodeAt(body, path.slice(0, -1));
  const key = path.at(-1)!;
  parent[key] = placement.mode === 'replace' ? secret : `${String(parent[key])} ${secret} tail`;
  return body as Record<string, unknown>;
}

/** Paths of every string leaf of a value, depth first. */
export function stringLeafPaths(value: unknown, prefix: Path = []): Path[] {
  if (typeof value === 'string') return [prefix];
  return childrenOf(value).flatMap(([key, item]) => stringLeafPaths(item, [...prefix, key]));
}

/** Paths of every plain object in a value (the root is `[]`), depth first. */
function objectPaths(value: unknown, prefix: Path = []): Path[] {
  const own = typeof value === 'object' && value !== null && !Array.isArray(value) ? [prefix] : [];
  return [...own, ...childrenOf(value).flatMap(([key, item]) => objectPaths(item, [...prefix, key]))];
}

function childrenOf(value: unknown): Array<[string | number, unknown]> {
  if (Array.isArray(value)) return value.map((item, index) => [index, item]);
  return typeof value === 'object' && value !== null ? Object.entries(value) : [];
}

function nodeAt(root: Record<string | number, unknown>, path: Path): Record<string | number, unknown> {
  return path.reduce<Record<string | number, unknown>>(
    (node, key) => node[key] as Record<string | number, unknown>,
    root,
  );
}
