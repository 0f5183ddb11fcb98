import fc from 'fast-check';

/** The code points below the surrogates; those above them follow, shifted down by the surrogates' 2,048. */
const BELOW_SURROGATES = 0xd800;
const SURROGATES = 0x800;
const LAST_INDEX = 0x10ffff - SURROGATES;

/**
 * Any code point but a lone surrogate: the same values, in the same order for a seed, as
 * `fc.string({ unit: 'binary' })`'s unit (a `mapToConstant` over the same two ranges). fast-check's
 * unit finds a value's index in a map of all 1.1 million code points, built when the string
 * arbitrary is made (seconds per test file); this one computes it.
 */
export const binaryCodePoint: fc.Arbitrary<string> = fc.nat({ max: LAST_INDEX }).map(
  index => String.fromCodePoint(index < BELOW_SURROGATES ? index : index + SURROGATES),
  value => {
    const codePoint = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (codePoint === undefined || String.fromCodePoint(codePoint) !== value || (codePoint >= BELOW_SURROGATES && codePoint < BELOW_SURROGATES + SURROGATES)) {
      throw new Error('not a single code point outside the surrogates');
    }
    return codePoint < BELOW_SURROGATES ? codePoint : codePoint - SURROGATES;
  },
);
