import { openAIChatUpstreamQuirks } from './openai-chat-upstream-quirks';

const body = { model: 'm', stream: true, stream_options: { include_usage: true }, max_completion_tokens: 64 };

describe('openAIChatUpstreamQuirks', () => {
  it('drops stream_options and renames the output limit, leaving the given body as it was', () => {
    const adjusted = openAIChatUpstreamQuirks.apply(body, ['omit-stream-options', 'max-tokens']);
    expect(adjusted).toEqual({ model: 'm', stream: true, max_tokens: 64 });
    expect(body).toHaveProperty('stream_options');
  });

  it('keeps the lower limit when a body carries both fields', () => {
    expect(openAIChatUpstreamQuirks.apply({ max_tokens: 10, max_completion_tokens: 64 }, ['max-tokens'])).toEqual({ max_tokens: 10 });
  });

  it('changes nothing for quirks not listed', () => {
    expect(openAIChatUpstreamQuirks.apply(body, [])).toBe(body);
  });
});
