import { applyAutomaticCache } from './automatic-prompt-cache';
import { applyBreakpointCache } from './breakpoint-prompt-cache';
import { NO_PROMPT_CACHE_USAGE, type PromptCacheUsage } from './prompt-cache-usage';
import { createPromptCacheStore } from './prompt-cache-store';
import type { SimulatedRequest } from './simulated-request';
import type { ResolvedPromptCacheOptions } from './simulator-options';

/** How a protocol's API caches: at the client's `cache_control` breakpoints (Messages) or by itself (OpenAI). */
export type PromptCaching = 'breakpoints' | 'automatic';

/** The simulator's prompt cache: one per simulator, separate per credential, in memory and bounded. */
export type PromptCache = {
  /** Reads the request's longest cached prefix for `credential`, caches what it should, and says how many tokens each took. */
  apply(request: SimulatedRequest, credential: string, caching: PromptCaching): PromptCacheUsage;
  /** Forgets every cached prefix of every credential. */
  clear(): void;
};

/** A prompt cache with the given limits; with `enabled: false` it reads and writes nothing. */
export function createPromptCache(options: ResolvedPromptCacheOptions, now: () => number): PromptCache {
  const store = createPromptCacheStore(options);
  return {
    apply(request, credential, caching) {
      if (!options.enabled) return NO_PROMPT_CACHE_USAGE;
      const scope = { store, credential, now: now(), minimumTokens: options.minimumTokens };
      return caching === 'breakpoints' ? applyBreakpointCache(request, scope) : applyAutomaticCache(request, scope);
    },
    clear: store.clear,
  };
}
