import { decodeAnthropicUsage } from './decode-anthropic-usage';
import { encodeAnthropicDeltaUsage, encodeAnthropicUsage } from './encode-anthropic-usage';

// The usage of a Message that read 20,003 tokens from the cache and wrote 3,000 (1,000 for 5 minutes,
// 2,000 for 1 hour), as the API reports it: `input_tokens` counts the uncached input only.
const wire = {
  input_tokens: 1234,
  cache_creation_input_tokens: 3000,
  cache_read_input_tokens: 20003,
  cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
  output_tokens: 456,
};

describe('Messages usage', () => {
  it('decodes into IR counts: input includes cache reads and writes, the 1-hour writes from cache_creation', () => {
    expect(decodeAnthropicUsage(wire)).toEqual({
      inputTokens: 24237,
      outputTokens: 456,
      cacheReadTokens: 20003,
      cacheWriteTokens: 3000,
      cacheWrite1hTokens: 2000,
      reasoningTokens: undefined,
    });
  });

  it('leaves the lifetime split unknown when the upstream sends no cache_creation (or null)', () => {
    const { cache_creation: _split, ...unsplit } = wire;
    expect(decodeAnthropicUsage(unsplit).cacheWrite1hTokens).toBeUndefined();
    expect(decodeAnthropicUsage({ ...unsplit, cache_creation: null }).cacheWrite1hTokens).toBeUndefined();
  });

  it('encodes the IR back into the same counts, cache_creation included', () => {
    expect(encodeAnthropicUsage(decodeAnthropicUsage(wire))).toEqual({
      ...wire,
      service_tier: null,
      inference_geo: null,
    });
  });

  it('encodes cache_creation as null when the writes were not split by lifetime (an OpenAI upstream)', () => {
    const usage = { ...decodeAnthropicUsage(wire), cacheWrite1hTokens: undefined };
    expect(encodeAnthropicUsage(usage)).toMatchObject({ cache_creation_input_tokens: 3000, cache_creation: null });
  });

  it('leaves cache_creation out of message_delta, whose usage has no such member', () => {
    expect(encodeAnthropicDeltaUsage(decodeAnthropicUsage(wire))).toEqual({
      input_tokens: 1234,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 20003,
      output_tokens: 456,
    });
  });
});
