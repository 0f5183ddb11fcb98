import { parseDurationMs, readOpenAIRateLimitResets } from './read-openai-rate-limit-resets';

describe('readOpenAIRateLimitResets', () => {
  it('reads each limit named, its duration reset and whether it is used up', () => {
    const headers = {
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '1m26.4s',
      'x-ratelimit-remaining-tokens': '15000',
      'x-ratelimit-reset-tokens': '6m0s',
    };
    expect(readOpenAIRateLimitResets(headers)).toEqual([
      { inMs: 86_400, exhausted: true },
      { inMs: 360_000, exhausted: false },
    ]);
  });

  it('skips a reset that is not a duration, and a limit that names none', () => {
    expect(readOpenAIRateLimitResets({ 'x-ratelimit-reset-requests': 'soon', 'x-ratelimit-remaining-tokens': '0' })).toEqual([]);
    expect(readOpenAIRateLimitResets({ 'anthropic-ratelimit-requests-reset': '2026-01-01T12:00:30Z' })).toEqual([]);
  });
});

describe('parseDurationMs', () => {
  it.each([
    ['12ms', 12],
    ['1.5s', 1_500],
    ['6m0s', 360_000],
    ['2h3m', 7_380_000],
  ])('reads %s as %i ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each(['', '5', 's', '1d', '1m garbage'])('refuses %j', text => {
    expect(parseDurationMs(text)).toBeUndefined();
  });
});
