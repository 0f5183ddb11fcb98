/**
 * Where a JSON value holds `null`, as dotted paths with `[]` for any array index
 * (`content[].citations`, `usage.cache_creation`): the shape a wire-fidelity test compares between
 * what a codec writes and what a vendor's recorded answers write.
 */
export function listNullPaths(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap(item => listNullPaths(item, `${path}[]`));
  if (typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, member]) =>
    listNullPaths(member, path === '' ? key : `${path}.${key}`),
  );
}
