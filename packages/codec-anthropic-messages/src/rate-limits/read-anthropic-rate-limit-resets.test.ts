import { readAnthropicRateLimitResets } from './read-anthropic-rate-limit-resets';

const NOW = Date.parse('2026-01-01T12:00:00Z');

describe('readAnthropicRateLimitResets', () => {
  it('reads each limit named, its RFC 3339 reset from now and whether it is used up', () => {
    const headers = {
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-01-01T12:00:30Z',
      'anthropic-ratelimit-tokens-remaining': '0',
      'anthropic-ratelimit-tokens-reset': '2026-01-01T12:00:45Z',
      'anthropic-ratelimit-input-tokens-remaining': '12000',
      'anthropic-ratelimit-input-tokens-reset': '2026-01-01T12:05:00Z',
    };
    expect(readAnthropicRateLimitResets(headers, NOW)).toEqual([
      { inMs: 30_000, exhausted: true },
      { inMs: 45_000, exhausted: true },
      { inMs: 300_000, exhausted: false },
    ]);
  });

  it('reads a reset in the past as 0, and skips what is not a time', () => {
    expect(readAnthropicRateLimitResets({ 'anthropic-ratelimit-requests-reset': '2026-01-01T11:59:00Z' }, NOW)).toEqual([{ inMs: 0, exhausted: false }]);
    expect(readAnthropicRateLimitResets({ 'anthropic-ratelimit-tokens-reset': 'later', 'x-ratelimit-reset-requests': '20s' }, NOW)).toEqual([]);
  });
});
