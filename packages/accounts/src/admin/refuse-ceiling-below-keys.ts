import { GatewayError } from '@signalbox/core';
import { describeBound, keyLimitBounds, membersBeyond } from '../keys/key-limit-bounds';
import { effectiveKeyLimits, keyLimitCeiling, type KeyLimits } from '../keys/key-limits';
import type { Account, ApiKeyRecord } from '../store/account-store';

/**
 * Refuses with 409 `KEY_LIMITS_ABOVE_CEILING` a new `keyLimitCeiling` (`undefined`: none, so
 * `limits.default`) that one of the account's keys would exceed where it did not exceed the old
 * one, so a lowered ceiling never silently leaves keys above it. A member a key leaves out follows
 * the ceiling and never counts; a key already above the old ceiling (the operator's grant) counts
 * only for the members the change newly puts it above.
 */
export function refuseCeilingBelowKeys(defaultKeyLimits: KeyLimits, account: Account, ceiling: KeyLimits | undefined, keys: readonly ApiKeyRecord[]): void {
  const next = { keyLimitCeiling: ceiling };
  const before = keyLimitBounds(keyLimitCeiling(defaultKeyLimits, account));
  const after = keyLimitBounds(keyLimitCeiling(defaultKeyLimits, next));
  for (const key of keys) {
    const limits = effectiveKeyLimits(defaultKeyLimits, next, key);
    const already = new Set(membersBeyond(effectiveKeyLimits(defaultKeyLimits, account, key), before));
    const member = membersBeyond(limits, after).find(candidate => !already.has(candidate));
    if (member === undefined) continue;
    throw new GatewayError({
      code: 'KEY_LIMITS_ABOVE_CEILING',
      message: `The key ${key.id} of this account has limits.${member} ${limits[member] ?? 'unset'}, where this ceiling allows ${describeBound(member, after)}; lower that key's limits first, or choose a higher ceiling.`,
      param: `keyLimitCeiling.${member}`,
    });
  }
}
