/** Whether a parsed JSON value nests deeper than `limit` (iterative: deep input cannot overflow the stack). */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof item === 'object' && item !== null) pending.push([item, depth + 1]);
    }
  }
  return false;
}
