import { formatDuration } from './rate-limit-answers';

describe('formatDuration', () => {
  it('writes durations the way x-ratelimit-reset-* headers do', () => {
    expect([0, 12, 999, 1000, 20_500, 86_400, 360_000, 3_600_000, 3_723_250].map(formatDuration)).toEqual([
      '0s',
      '12ms',
      '999ms',
      '1s',
      '20.5s',
      '1m26.4s',
      '6m0s',
      '1h0m0s',
      '1h2m3.25s',
    ]);
    expect(formatDuration(0.2)).toBe('1ms');
  });
});
