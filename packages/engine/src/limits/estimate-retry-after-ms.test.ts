import { estimateRetryAfterMs } from './estimate-retry-after-ms';

describe('estimateRetryAfterMs', () => {
  it('expects the oldest holder to finish after the average hold time', () => {
    expect(estimateRetryAfterMs({ averageHoldMs: 8_000, oldestHolderAgeMs: 3_000, waiting: 0, concurrency: 2 })).toBe(5_000);
  });

  it('never asks for less than a second', () => {
    expect(estimateRetryAfterMs({ averageHoldMs: 2_000, oldestHolderAgeMs: 9_000, waiting: 0, concurrency: 1 })).toBe(1_000);
    expect(estimateRetryAfterMs({ averageHoldMs: undefined, oldestHolderAgeMs: 0, waiting: 0, concurrency: 1 })).toBe(1_000);
  });

  it('adds the queue ahead, drained by all slots at once', () => {
    expect(estimateRetryAfterMs({ averageHoldMs: 4_000, oldestHolderAgeMs: 1_000, waiting: 3, concurrency: 2 })).toBe(9_000);
  });

  it('uses the oldest holder’s age as the hold time before any slot was released', () => {
    expect(estimateRetryAfterMs({ averageHoldMs: undefined, oldestHolderAgeMs: 5_000, waiting: 2, concurrency: 1 })).toBe(11_000);
    expect(estimateRetryAfterMs({ averageHoldMs: undefined, oldestHolderAgeMs: 200, waiting: 1, concurrency: 1 })).toBe(2_000);
  });

  it('rounds up to whole milliseconds', () => {
    expect(estimateRetryAfterMs({ averageHoldMs: 1_000, oldestHolderAgeMs: 0, waiting: 1, concurrency: 3 })).toBe(1_334);
  });
});
