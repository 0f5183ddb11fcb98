import { effectiveKeyLimits, keyLimitCeiling, keyLimitsSchema } from './key-limits';

describe('keyLimitsSchema', () => {
  it('accepts every limit as a whole positive number, and a queue of 0', () => {
    const limits = {
      requests: 600,
      tokens: 2_000_000,
      windowSeconds: 60,
      concurrency: 8,
      queueSize: 0,
      queueTimeoutMs: 30_000,
      quotaTokens: 50_000_000,
      quotaPeriodHours: 720,
    };
    expect(keyLimitsSchema.parse(limits)).toEqual(limits);
    expect(keyLimitsSchema.parse({})).toEqual({});
  });

  it('refuses a misspelt member instead of reading it as "no limit"', () => {
    const result = keyLimitsSchema.safeParse({ request: 10 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['request'] });
  });

  it.each([
    ['requests', 0],
    ['tokens', -1],
    ['concurrency', 1.5],
    ['queueSize', -1],
    ['windowSeconds', '60'],
  ])('refuses %s = %p, naming the member', (member, value) => {
    const result = keyLimitsSchema.safeParse({ [member]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([member]);
  });
});

describe('effectiveKeyLimits', () => {
  const defaults = { concurrency: 64, queueSize: 256, queueTimeoutMs: 30_000 };

  it('overlays limits.default with the account’s ceiling, then with the key’s own limits, member by member', () => {
    expect(effectiveKeyLimits(defaults, {}, {})).toEqual(defaults);
    expect(effectiveKeyLimits(defaults, { keyLimitCeiling: { concurrency: 4, requests: 100 } }, {})).toEqual({ ...defaults, concurrency: 4, requests: 100 });
    expect(effectiveKeyLimits(defaults, { keyLimitCeiling: { concurrency: 4 } }, { limits: { concurrency: 2, tokens: 10 } })).toEqual({ ...defaults, concurrency: 2, tokens: 10 });
    expect(keyLimitCeiling(defaults, { keyLimitCeiling: { queueSize: 0 } })).toEqual({ ...defaults, queueSize: 0 });
  });
});
