import { capAnthropicOutputTokens } from './cap-anthropic-output-tokens';

const body = { model: 'm', max_tokens: 8000, messages: [] };

describe('capAnthropicOutputTokens', () => {
  it('lowers max_tokens to the cap and keeps a smaller one', () => {
    expect(capAnthropicOutputTokens(body, 500)).toEqual({ ...body, max_tokens: 500 });
    expect(capAnthropicOutputTokens({ ...body, max_tokens: 300 }, 500)).toEqual({ ...body, max_tokens: 300 });
  });

  it('lowers a thinking budget under the new max_tokens, and turns thinking off when the minimum 1 024 no longer fits', () => {
    const thinking = { ...body, thinking: { type: 'enabled', budget_tokens: 4000 } };
    expect(capAnthropicOutputTokens(thinking, 2000)).toEqual({ ...body, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1999 } });
    expect(capAnthropicOutputTokens(thinking, 1000)).toEqual({ ...body, max_tokens: 1000 });
    expect(capAnthropicOutputTokens(thinking, 6000)).toEqual({ ...thinking, max_tokens: 6000 });
  });
});
