import { emptyUsage, type Usage } from '@signalbox/core';
import { computeCostMicros, highestInputPrice, priceUsage, splitInputTokens } from './compute-cost';

/** Anthropic's published multipliers on a $3 input price: reads 0.1×, 5-minute writes 1.25×, 1-hour writes 2×. */
const CLAUDE = { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75, cacheWrite1hPerMillion: 6 };

function usage(counts: Partial<Usage>): Usage {
  return { ...emptyUsage(), ...counts };
}

// 1,234 uncached, 20,003 read, 1,000 written for 5 minutes and 2,000 for 1 hour; 456 out.
const cached = usage({ inputTokens: 24_237, cacheReadTokens: 20_003, cacheWriteTokens: 3000, cacheWrite1hTokens: 2000, outputTokens: 456 });

describe('splitInputTokens', () => {
  it('splits the input into uncached, read and written by lifetime', () => {
    expect(splitInputTokens(cached)).toEqual({ uncached: 1234, cacheRead: 20_003, cacheWrite5m: 1000, cacheWrite1h: 2000 });
  });

  it('counts writes of no reported lifetime as 5-minute ones', () => {
    expect(splitInputTokens({ ...cached, cacheWrite1hTokens: undefined })).toMatchObject({ cacheWrite5m: 3000, cacheWrite1h: 0 });
  });

  it('never splits off more than the input holds, nor a negative or fractional count', () => {
    expect(splitInputTokens(usage({ inputTokens: 100, cacheReadTokens: 80, cacheWriteTokens: 50, cacheWrite1hTokens: 70 }))).toEqual({
      uncached: 0,
      cacheRead: 80,
      cacheWrite5m: 0,
      cacheWrite1h: 20,
    });
    expect(splitInputTokens(usage({ inputTokens: 10.6, cacheReadTokens: -5 }))).toEqual({ uncached: 11, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 });
  });
});

describe('computeCostMicros', () => {
  it('bills each part of the input at its own price and output at the output price, rounding up once', () => {
    // 1,234 × 3 + 20,003 × 0.3 + 1,000 × 3.75 + 2,000 × 6 + 456 × 15 = 32,292.9 micro-units.
    expect(computeCostMicros(CLAUDE, cached)).toBe(32_293);
  });

  it('bills each cache price that is absent at the input price', () => {
    expect(computeCostMicros({ inputPerMillion: 3, outputPerMillion: 15 }, cached)).toBe(24_237 * 3 + 456 * 15);
    expect(computeCostMicros({ inputPerMillion: 3, outputPerMillion: 15, cacheWritePerMillion: 3.75 }, cached)).toBe(
      1234 * 3 + 20_003 * 3 + 1000 * 3.75 + 2000 * 3 + 456 * 15,
    );
  });

  it('adds exactly, without binary floating-point drift', () => {
    // 30 × 0.1 is 3.0000000000000004 in floating point, which rounded up would bill 4.
    expect(computeCostMicros({ inputPerMillion: 0.1, outputPerMillion: 0 }, usage({ inputTokens: 30 }))).toBe(3);
    expect(computeCostMicros({ inputPerMillion: 0.3, outputPerMillion: 0.3 }, usage({ inputTokens: 1, outputTokens: 1 }))).toBe(1);
  });

  it('costs nothing without pricing, and unreported counts cost nothing', () => {
    expect(computeCostMicros(undefined, cached)).toBe(0);
    expect(computeCostMicros(CLAUDE, usage({}))).toBe(0);
  });

  it('stays exact for counts and prices whose product passes 2^53', () => {
    expect(computeCostMicros({ inputPerMillion: 1000.000001, outputPerMillion: 0 }, usage({ inputTokens: 100_000_000 }))).toBe(100_000_000_100);
  });
});

describe('priceUsage', () => {
  it('gives the cost and what the cache saved: the cost with every input token at the input price, minus the cost', () => {
    expect(priceUsage(CLAUDE, cached)).toEqual({ costMicros: 32_293, cacheSavingsMicros: 24_237 * 3 + 456 * 15 - 32_293 });
  });

  it('saves a negative amount for a cache written and not read, and nothing without cache activity or pricing', () => {
    expect(priceUsage(CLAUDE, usage({ inputTokens: 1000, cacheWriteTokens: 1000, cacheWrite1hTokens: 1000 }))).toEqual({ costMicros: 6000, cacheSavingsMicros: 3000 - 6000 });
    expect(priceUsage(CLAUDE, usage({ inputTokens: 1000, outputTokens: 10 }))).toEqual({ costMicros: 3150, cacheSavingsMicros: 0 });
    expect(priceUsage(undefined, cached)).toEqual({ costMicros: 0, cacheSavingsMicros: 0 });
  });
});

describe('highestInputPrice', () => {
  it('is the dearest of the input and cache-write prices', () => {
    expect(highestInputPrice(CLAUDE)).toBe(6);
    expect(highestInputPrice({ inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 })).toBe(3);
  });
});
