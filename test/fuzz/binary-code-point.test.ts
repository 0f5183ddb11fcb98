import fc from 'fast-check';
import { binaryCodePoint } from './binary-code-point';

describe('binaryCodePoint', () => {
  it('generates what fast-check’s binary string unit generates, seed for seed', () => {
    const ours = fc.sample(fc.string({ unit: binaryCodePoint, maxLength: 40 }), { seed: 42, numRuns: 500 });
    const theirs = fc.sample(fc.string({ unit: 'binary', maxLength: 40 }), { seed: 42, numRuns: 500 });
    expect(ours).toEqual(theirs);
  });

  it('maps every code point back to its index, and refuses what the unit cannot generate', () => {
    const unit = binaryCodePoint;
    for (const value of ['\u0000', 'a', '\ud7ff', '\ue000', '💥', '\u{10ffff}']) expect(unit.canShrinkWithoutContext(value)).toBe(true);
    for (const value of ['', 'ab', '\ud800', '\udfff', '💥x', 7]) expect(unit.canShrinkWithoutContext(value)).toBe(false);
  });
});
