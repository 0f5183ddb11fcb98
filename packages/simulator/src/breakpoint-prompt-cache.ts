import { digestBlockEnds, type PrefixDigest } from './prompt-prefix-digests';
import { DEFAULT_CACHE_TTL_SECONDS, NO_PROMPT_CACHE_USAGE, tokensOf, type PromptCacheUsage } from './prompt-cache-usage';
import type { PromptCacheStore } from './prompt-cache-store';
import type { PromptBlock, SimulatedRequest } from './simulated-request';

/** How many blocks before a breakpoint Messages checks for a prefix cached earlier. */
const LOOKBACK_BLOCKS = 20;

/** One credential's view of the cache at one moment, with the shortest prefix worth caching. */
export type CacheScope = { store: PromptCacheStore; credential: string; now: number; minimumTokens: number };

/**
 * Messages caching: each `cache_control` breakpoint caches the prefix through its block (tools,
 * system, messages, in that order) when it holds at least the minimum. The longest cached prefix
 * found at a breakpoint or up to 20 blocks before one is read; the rest up to the last breakpoint is
 * written, the part up to the last 1-hour breakpoint at the 1-hour lifetime and the remainder at 5 minutes.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
export function applyBreakpointCache(request: SimulatedRequest, scope: CacheScope): PromptCacheUsage {
  const breakpoints = breakpointIndexes(request.promptBlocks);
  const last = breakpoints.at(-1);
  if (last === undefined) return NO_PROMPT_CACHE_USAGE;
  const prefixes = digestBlockEnds(request.promptBlocks, `messages\u0000${request.model}`, last);
  const readTokens = readLongestCachedPrefix(prefixes, breakpoints, scope);
  let oneHourEnd = readTokens;
  let lastEnd = readTokens;
  for (const index of breakpoints) {
    const block = request.promptBlocks[index] as PromptBlock;
    const prefix = prefixes[index] as PrefixDigest;
    const tokens = tokensOf(prefix.characters);
    const ttlSeconds = block.breakpoint?.ttlSeconds ?? 0;
    if (tokens < scope.minimumTokens) continue;
    scope.store.write(scope.credential, prefix.digest, ttlSeconds, scope.now);
    if (tokens > readTokens && ttlSeconds > DEFAULT_CACHE_TTL_SECONDS) oneHourEnd = Math.max(oneHourEnd, tokens);
    lastEnd = Math.max(lastEnd, tokens);
  }
  return { readTokens, write1hTokens: oneHourEnd - readTokens, write5mTokens: Math.max(0, lastEnd - oneHourEnd) };
}

function breakpointIndexes(blocks: readonly PromptBlock[]): number[] {
  const indexes: number[] = [];
  blocks.forEach((block, index) => {
    if (block.breakpoint !== undefined) indexes.push(index);
  });
  return indexes;
}

/** Tokens of the longest prefix cached at a breakpoint or in the blocks before one (that hit's lifetime starts again); 0 when none. */
function readLongestCachedPrefix(prefixes: readonly PrefixDigest[], breakpoints: readonly number[], scope: CacheScope): number {
  const searched = new Set<number>();
  for (const breakpoint of breakpoints) {
    for (let index = Math.max(0, breakpoint - LOOKBACK_BLOCKS); index <= breakpoint; index += 1) searched.add(index);
  }
  for (let index = prefixes.length - 1; index >= 0; index -= 1) {
    const prefix = prefixes[index] as PrefixDigest;
    if (!searched.has(index) || tokensOf(prefix.characters) < scope.minimumTokens) continue;
    if (scope.store.read(scope.credential, prefix.digest, scope.now)) return tokensOf(prefix.characters);
  }
  return 0;
}
