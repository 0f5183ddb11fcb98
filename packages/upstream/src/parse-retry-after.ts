/**
 * The delay an upstream asked for, in milliseconds: `retry-after-ms` (non-standard, used by OpenAI)
 * first, then `retry-after` as seconds or an HTTP date. `undefined` when absent or unreadable.
 */
export function parseRetryAfterMs(
  headers: Record<string, string | string[] | undefined>,
  now = Date.now(),
): number | undefined {
  const milliseconds = Number.parseFloat(firstValue(headers['retry-after-ms']) ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = firstValue(headers['retry-after']);
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
