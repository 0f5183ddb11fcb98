/**
 * Where a JSON value has `member` set (not `null`), as dotted paths with array indices
 * (`tools.1`, `messages.4.content.0`, `` for the value itself), in document order: what a test of
 * markers such as `cache_control` compares, wherever they sit.
 */
export function listMemberPaths(value: unknown, member: string, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => listMemberPaths(item, member, join(path, String(index))));
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  const own = record[member] !== undefined && record[member] !== null ? [path] : [];
  const inner = Object.entries(record).flatMap(([key, child]) => (key === member ? [] : listMemberPaths(child, member, join(path, key))));
  return [...own, ...inner];
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
