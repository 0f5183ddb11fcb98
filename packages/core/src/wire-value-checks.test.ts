import { isCount, isInRange, isNullishCount, isNullishMember, isNullishString, isOptionalCount, isOptionalInRange, isOptionalString } from './wire-value-checks';

describe('wire value checks', () => {
  it('take what zod takes: finite numbers, safe integers, bounds inclusive', () => {
    expect([isInRange(1, 0, 1), isInRange(Infinity), isInRange(Number.NaN), isInRange('1')]).toEqual([true, false, false, false]);
    expect([isCount(3, 1), isCount(1.5, 0), isCount(2 ** 53, 0), isCount(21, 0, 20)]).toEqual([true, false, false, false]);
  });

  it('let an optional field be absent, and a nullish one null as well', () => {
    expect([isOptionalString(undefined), isOptionalString(null), isNullishString(null), isNullishString(1)]).toEqual([true, false, true, false]);
    expect([isOptionalCount(undefined, 1), isOptionalCount(null, 1), isNullishCount(null, 1), isNullishCount(0, 1)]).toEqual([true, false, true, false]);
    expect([isOptionalInRange(undefined, 0), isOptionalInRange(-1, 0), isNullishMember('low', new Set(['low'])), isNullishMember('max', new Set(['low']))]).toEqual([true, false, true, false]);
  });
});
