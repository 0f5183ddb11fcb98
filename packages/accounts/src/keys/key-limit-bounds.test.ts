import { describeBound, keyLimitBounds, looserBounds, membersBeyond, type KeyLimitMember } from './key-limit-bounds';
import { CASE_CEILING as CEILING, ONE_STEP_LESS as LESS, ONE_STEP_MORE as MORE } from '../testing';

const MEMBERS = Object.keys(CEILING) as KeyLimitMember[];

describe('key limit bounds', () => {
  const bounds = keyLimitBounds(CEILING);

  it.each(MEMBERS)('%s: one step more than the ceiling is beyond it, the ceiling itself and one step less are not', member => {
    expect(membersBeyond({ ...CEILING, [member]: MORE[member] }, bounds)).toEqual([member]);
    expect(membersBeyond({ ...CEILING, [member]: LESS[member] }, bounds)).toEqual([]);
    expect(membersBeyond(CEILING, bounds)).toEqual([]);
  });

  it('gives more with a larger count, queue or wait and with a shorter window or period', () => {
    expect(describeBound('concurrency', bounds)).toBe('at most 4');
    expect(describeBound('queueTimeoutMs', bounds)).toBe('at most 5000');
    expect(describeBound('windowSeconds', bounds)).toBe('at least 60');
    expect(describeBound('quotaPeriodHours', bounds)).toBe('at least 24');
  });

  it.each(['requests', 'tokens', 'concurrency', 'quotaTokens'] as const)('counts a count the ceiling bounds and the limits leave out as unlimited: beyond (%s)', member => {
    const { [member]: _removed, ...rest } = CEILING;
    expect(membersBeyond(rest, bounds)).toEqual([member]);
  });

  it('reads a window, queue or period left out at the value the limiter gives it: 60 s, no queue, 30 s wait, 720 h', () => {
    const strict = keyLimitBounds({ requests: 10, windowSeconds: 120, concurrency: 1, queueSize: 1, queueTimeoutMs: 60_000, quotaTokens: 5, quotaPeriodHours: 1_000 });
    expect(membersBeyond({ requests: 10, concurrency: 1, queueSize: 1, quotaTokens: 5 }, strict)).toEqual(['windowSeconds', 'quotaPeriodHours']);
    const implied = keyLimitBounds({ requests: 10, concurrency: 1, quotaTokens: 5 });
    expect([implied.windowSeconds, implied.queueSize, implied.queueTimeoutMs, implied.quotaPeriodHours]).toEqual([60, 0, 30_000, 720]);
    expect(membersBeyond({ requests: 10, concurrency: 1, queueSize: 1, quotaTokens: 5 }, implied)).toEqual(['queueSize']);
  });

  it('bounds a window, queue or period only next to the count it belongs to', () => {
    const open = keyLimitBounds({ windowSeconds: 600, queueSize: 0, queueTimeoutMs: 1, quotaPeriodHours: 9_000 });
    expect(membersBeyond({ windowSeconds: 1, queueSize: 50, queueTimeoutMs: 60_000, quotaPeriodHours: 1, requests: 5 }, open)).toEqual([]);
    expect(membersBeyond({}, keyLimitBounds({}))).toEqual([]);
  });

  it('takes, member by member, the looser of two bounds', () => {
    const granted = keyLimitBounds({ concurrency: 10, requests: 50, windowSeconds: 30 });
    const looser = looserBounds(bounds, granted);
    expect(looser.concurrency).toBe(10);
    expect(looser.requests).toBe(100);
    expect(looser.windowSeconds).toBe(30);
    expect(looser.quotaTokens).toBe(Number.POSITIVE_INFINITY);
    expect(looser.quotaPeriodHours).toBe(0);
  });
});
