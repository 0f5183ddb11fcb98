import type { KeyLimits } from './key-limits';

/** A member of `KeyLimits`. */
export type KeyLimitMember = keyof KeyLimits;

/**
 * What the limiter assumes for a member a key's limits leave out; the count members (`requests`,
 * `tokens`, `concurrency`, `quotaTokens`) are then unlimited.
 */
export const IMPLIED_KEY_LIMITS = { windowSeconds: 60, queueSize: 0, queueTimeoutMs: 30_000, quotaPeriodHours: 720 } as const;

/** Which way each member gives a key more: a larger count, queue or wait, or a shorter window or period. */
const MORE_IS_SMALLER: Readonly<Record<KeyLimitMember, boolean>> = {
  requests: false,
  tokens: false,
  windowSeconds: true,
  concurrency: false,
  queueSize: false,
  queueTimeoutMs: false,
  quotaTokens: false,
  quotaPeriodHours: true,
};

/** The members that matter only next to a count: a rate's window, a concurrency's queue, a quota's period. */
const ALONGSIDE: Readonly<Partial<Record<KeyLimitMember, readonly KeyLimitMember[]>>> = {
  windowSeconds: ['requests', 'tokens'],
  queueSize: ['concurrency'],
  queueTimeoutMs: ['concurrency'],
  quotaPeriodHours: ['quotaTokens'],
};

const MEMBERS = Object.keys(MORE_IS_SMALLER) as KeyLimitMember[];

/**
 * The most each member may give a key: for a count, queue or wait the largest value allowed, for a
 * window or period the shortest (`Infinity` and `0`: unbounded).
 */
export type KeyLimitBounds = Readonly<Record<KeyLimitMember, number>>;

/** What a member of `limits` amounts to, its implied value when left out. */
function valueOf(limits: KeyLimits, member: KeyLimitMember): number {
  const implied: number | undefined = IMPLIED_KEY_LIMITS[member as keyof typeof IMPLIED_KEY_LIMITS];
  return limits[member] ?? implied ?? (MORE_IS_SMALLER[member] ? 0 : Number.POSITIVE_INFINITY);
}

/**
 * The bounds a set of limits stands for: each count it sets, and each window, queue or period next
 * to a count it sets (its implied value when left out: 60 s next to `requests`, no queue next to
 * `concurrency`); every other member unbounded.
 */
export function keyLimitBounds(limits: KeyLimits): KeyLimitBounds {
  const bounds = {} as Record<KeyLimitMember, number>;
  for (const member of MEMBERS) {
    const counts = ALONGSIDE[member];
    const bounded = counts ? counts.some(count => limits[count] !== undefined) : limits[member] !== undefined;
    bounds[member] = bounded ? valueOf(limits, member) : unbounded(member);
  }
  return bounds;
}

/** Per member, the bound that gives more of the two (what either of them allows). */
export function looserBounds(first: KeyLimitBounds, second: KeyLimitBounds): KeyLimitBounds {
  const bounds = {} as Record<KeyLimitMember, number>;
  for (const member of MEMBERS) {
    bounds[member] = MORE_IS_SMALLER[member] ? Math.min(first[member], second[member]) : Math.max(first[member], second[member]);
  }
  return bounds;
}

/** The members of `limits` (left-out ones at their implied value) that give more than `bounds` allow, in `KeyLimits` order. */
export function membersBeyond(limits: KeyLimits, bounds: KeyLimitBounds): KeyLimitMember[] {
  return MEMBERS.filter(member => {
    const value = valueOf(limits, member);
    return MORE_IS_SMALLER[member] ? value < bounds[member] : value > bounds[member];
  });
}

/** "at most 64" or "at least 60": what a bound allows of its member, for messages. */
export function describeBound(member: KeyLimitMember, bounds: KeyLimitBounds): string {
  return `${MORE_IS_SMALLER[member] ? 'at least' : 'at most'} ${bounds[member]}`;
}

function unbounded(member: KeyLimitMember): number {
  return MORE_IS_SMALLER[member] ? 0 : Number.POSITIVE_INFINITY;
}
