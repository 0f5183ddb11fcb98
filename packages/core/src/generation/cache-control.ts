/**
 * A prompt-cache breakpoint on a part, a tool or a system part: the prompt up to and including it
 * is cached for `ttl` (5 minutes when absent). Only Anthropic Messages has it on the wire
 * (`cache_control`); OpenAI protocols cache by prefix on their own and drop it.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
export type CacheControl = { type: 'ephemeral'; ttl?: '5m' | '1h' };
