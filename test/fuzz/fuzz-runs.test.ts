import { fuzzRuns } from './fuzz-runs';

describe('fuzzRuns', () => {
  const full = { anyBody: 2000, validStreams: 200 };

  it('runs every property at full strength when SIGNALBOX_FUZZ_RUNS is not set', () => {
    expect(fuzzRuns(full, {})).toEqual({ anyBody: 2000, validStreams: 200 });
    expect(fuzzRuns(full, { SIGNALBOX_FUZZ_RUNS: '' })).toEqual({ anyBody: 2000, validStreams: 200 });
  });

  it('caps every property at SIGNALBOX_FUZZ_RUNS cases, never raising one', () => {
    expect(fuzzRuns(full, { SIGNALBOX_FUZZ_RUNS: '300' })).toEqual({ anyBody: 300, validStreams: 200 });
    expect(fuzzRuns(full, { SIGNALBOX_FUZZ_RUNS: '5000' })).toEqual({ anyBody: 2000, validStreams: 200 });
  });

  it.each(['0', '-3', '2.5', 'many'])(
    'refuses SIGNALBOX_FUZZ_RUNS=%s with an error naming the variable',
    setting => {
      expect(() => fuzzRuns(full, { SIGNALBOX_FUZZ_RUNS: setting })).toThrow(
        /^SIGNALBOX_FUZZ_RUNS must be a positive whole number/,
      );
    },
  );
});
