/**
 * Whether a parsed JSON value nests deeper than `limit`. Recursive, but never more than `limit` + 1
 * calls deep however deep the input: it stops at the first value past the limit. It walks the body
 * in place, making no list of pending values and no array of an object's values per request.
 */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (nestingDepthExceeds(value[index], limit - 1)) return true;
    return false;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) if (nestingDepthExceeds(object[key], limit - 1)) return true;
  return false;
}
