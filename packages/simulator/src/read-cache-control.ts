import { asRecord } from './read-text-content';
import type { CacheBreakpoint } from './simulated-request';
import { simulatorError, type SimulatorError } from './simulator-error';

/** The lifetimes Messages `cache_control.ttl` accepts, in seconds; absent means 5 minutes. */
const TTL_SECONDS: ReadonlyMap<string | undefined, number> = new Map([
  [undefined, 300],
  ['5m', 300],
  ['1h', 3600],
]);

/**
 * A Messages `cache_control` value: a breakpoint, nothing (absent or `null`), or the 400 the API
 * answers for a type or ttl it does not know.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
export function readCacheControl(value: unknown, location: string): CacheBreakpoint | undefined | SimulatorError {
  if (value === undefined || value === null) return undefined;
  const control = asRecord(value);
  if (control?.type !== 'ephemeral') return simulatorError(400, `${location}.cache_control.type: Input should be 'ephemeral'`);
  const ttl = typeof control.ttl === 'string' || control.ttl === undefined ? TTL_SECONDS.get(control.ttl) : undefined;
  if (ttl === undefined) return simulatorError(400, `${location}.cache_control.ttl: Input should be '5m' or '1h'`);
  return { ttlSeconds: ttl };
}
