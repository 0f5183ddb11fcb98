import { createHash } from 'node:crypto';
import type { CredentialSettings } from './credential-settings';
import type { PromptCacheUsage } from './prompt-cache-usage';
import { createRateLimitBucket, takeRequest, type RateLimitBucket, type RateLimitDecision } from './rate-limit-bucket';

/** What the simulator saw from one key. Token counts are of answered requests. */
export type CredentialStats = {
  /** Requests that carried the key, refused ones included. */
  requests: number;
  /** Requests refused with 429 by the key's rate limit. */
  rateLimited: number;
  /** Requests refused with 401 because the key is revoked. */
  revoked: number;
  /** All input tokens of answered requests, cached and written ones included. */
  inputTokens: number;
  /** Input tokens read from the prompt cache (Messages `cache_read_input_tokens`, OpenAI `cached_tokens`). */
  cacheReadTokens: number;
  /** Input tokens written to the prompt cache (Messages `cache_creation_input_tokens`; OpenAI reports none). */
  cacheWriteTokens: number;
};

/** One key as `GET /simulator/credentials` lists it: by its name or a digest, never the key. */
export type CredentialListing = { name: string; settings: Omit<CredentialSettings, 'name'>; stats: CredentialStats };

/** Whether a request's key may proceed, and the rate-limit facts its answer carries when the key is limited. */
export type CredentialAdmission =
  | { outcome: 'revoked' }
  | { outcome: 'rate-limited'; decision: RateLimitDecision }
  | { outcome: 'admitted'; decision: RateLimitDecision | undefined };

/** Per-key settings, rate limits and stats. Keys nobody configured are unlimited; their stats are bounded. */
export type CredentialRegistry = {
  /**
   * Replaces a key's settings (undefined: none), starting its rate limit afresh. False, and nothing
   * changed, when a new key would pass the bound of configured keys.
   */
  configure(key: string, settings: CredentialSettings | undefined): boolean;
  /** Counts a request carrying `key` ('' when none) and decides whether it may proceed. */
  admit(key: string): CredentialAdmission;
  /** Adds an answered request's input and cache tokens to the key's stats. */
  recordAnswer(key: string, inputTokens: number, cache: PromptCacheUsage): void;
  /** The name a key is listed by: its configured `name`, or a digest of it. */
  nameOf(key: string): string;
  /** The key's stats (zeros for a key not seen). */
  statsOf(key: string): CredentialStats;
  /** Every configured or recently seen key, by name. */
  list(): CredentialListing[];
  /** Zeroes every key's stats. */
  resetStats(): void;
};

type Configured = { settings: CredentialSettings; bucket: RateLimitBucket | undefined };

/** How many keys' stats are kept, the least recently seen going first. */
const MAX_TRACKED_CREDENTIALS = 1000;

/** How many keys may have settings at once. */
const MAX_CONFIGURED_CREDENTIALS = 1000;

/** A registry holding `initial` settings, reading time from `now`. */
export function createCredentialRegistry(initial: Readonly<Record<string, CredentialSettings>>, now: () => number): CredentialRegistry {
  const configured = new Map<string, Configured>();
  const stats = new Map<string, CredentialStats>();
  const statsEntry = (key: string): CredentialStats => {
    const entry = stats.get(key) ?? emptyStats();
    stats.delete(key);
    stats.set(key, entry);
    if (stats.size > MAX_TRACKED_CREDENTIALS) stats.delete(stats.keys().next().value as string);
    return entry;
  };
  const configure: CredentialRegistry['configure'] = (key, settings) => {
    if (settings === undefined) {
      configured.delete(key);
      return true;
    }
    if (!configured.has(key) && configured.size >= MAX_CONFIGURED_CREDENTIALS) return false;
    configured.set(key, { settings: { ...settings }, bucket: undefined });
    return true;
  };
  for (const [key, settings] of Object.entries(initial)) {
    if (!configure(key, settings)) throw new RangeError(`Simulator option credentials: at most ${MAX_CONFIGURED_CREDENTIALS} keys`);
  }
  return {
    configure,
    admit(key) {
      const entry = statsEntry(key);
      entry.requests += 1;
      const admission = admitConfigured(configured.get(key), now());
      if (admission.outcome === 'revoked') entry.revoked += 1;
      if (admission.outcome === 'rate-limited') entry.rateLimited += 1;
      return admission;
    },
    recordAnswer(key, inputTokens, cache) {
      const entry = statsEntry(key);
      entry.inputTokens += inputTokens;
      entry.cacheReadTokens += cache.readTokens;
      entry.cacheWriteTokens += cache.write5mTokens + cache.write1hTokens;
    },
    nameOf: key => configured.get(key)?.settings.name ?? credentialDigestName(key),
    statsOf: key => ({ ...(stats.get(key) ?? emptyStats()) }),
    list: () => listCredentials(configured, stats),
    resetStats: () => stats.clear(),
  };
}

function admitConfigured(entry: Configured | undefined, now: number): CredentialAdmission {
  if (entry === undefined) return { outcome: 'admitted', decision: undefined };
  const { settings } = entry;
  if (settings.revoked === true) return { outcome: 'revoked' };
  if (settings.requestsPerMinute === undefined) return { outcome: 'admitted', decision: undefined };
  entry.bucket ??= createRateLimitBucket(settings.requestsPerMinute, now);
  const limits = { requestsPerMinute: settings.requestsPerMinute, retryAfterSeconds: settings.retryAfterSeconds };
  const decision = takeRequest(entry.bucket, limits, now);
  return decision.allowed ? { outcome: 'admitted', decision } : { outcome: 'rate-limited', decision };
}

function listCredentials(configured: ReadonlyMap<string, Configured>, stats: ReadonlyMap<string, CredentialStats>): CredentialListing[] {
  const keys = new Set([...configured.keys(), ...stats.keys()]);
  return [...keys].map(key => {
    const { name, ...settings } = configured.get(key)?.settings ?? {};
    return { name: name ?? credentialDigestName(key), settings, stats: { ...(stats.get(key) ?? emptyStats()) } };
  });
}

/** A key's default name: `none` without a key, else `key-` and the first 12 hex digits of its SHA-256. */
function credentialDigestName(key: string): string {
  return key === '' ? 'none' : `key-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

function emptyStats(): CredentialStats {
  return { requests: 0, rateLimited: 0, revoked: 0, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}
