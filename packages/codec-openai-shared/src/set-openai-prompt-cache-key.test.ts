import { setOpenAIPromptCacheKey } from './set-openai-prompt-cache-key';

describe('setOpenAIPromptCacheKey', () => {
  it('gives a forwarded body without one the key, as a new object', () => {
    const body = { model: 'gpt-6', input: 'hi' };
    expect(setOpenAIPromptCacheKey(body, 'conv-1')).toEqual({ model: 'gpt-6', input: 'hi', prompt_cache_key: 'conv-1' });
    expect(body).toEqual({ model: 'gpt-6', input: 'hi' });
  });

  it('keeps the client’s own key (null counts as none)', () => {
    const own = { model: 'gpt-6', prompt_cache_key: 'client-key' };
    expect(setOpenAIPromptCacheKey(own, 'conv-1')).toBe(own);
    expect(setOpenAIPromptCacheKey({ model: 'gpt-6', prompt_cache_key: null }, 'conv-1').prompt_cache_key).toBe('conv-1');
  });
});
