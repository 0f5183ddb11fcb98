import { z } from 'zod';

/**
 * Per-key limits; an absent member means "no limit of that kind". The same shape sets a key's own
 * limits (admin API, CLI), an account's `keyLimitCeiling` and the gateway config's `limits.default`;
 * each overrides the one after it member by member (`effectiveKeyLimits`).
 */
export type KeyLimits = {
  /** Requests per `windowSeconds`. */
  requests?: number;
  /** Tokens (estimated input + actual output) per `windowSeconds`. */
  tokens?: number;
  /** Length of the rate window in seconds. Default 60. */
  windowSeconds?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Requests allowed to wait for a concurrency slot. Default 0 (no queue). */
  queueSize?: number;
  /** Longest wait in the queue, in ms. Default 30 000. */
  queueTimeoutMs?: number;
  /** Tokens the key may use per `quotaPeriodHours`; once used up, `QUOTA_EXCEEDED` until the period ends. */
  quotaTokens?: number;
  /** Length of the quota period in hours. Default 720 (30 days). */
  quotaPeriodHours?: number;
};

/**
 * Validates a `KeyLimits` written by a person (admin API body, config file): whole positive numbers,
 * no unknown members, so a typo such as `request: 10` is refused instead of silently meaning "no limit".
 */
export const keyLimitsSchema = z
  .object({
    requests: z.number().int().positive().optional(),
    tokens: z.number().int().positive().optional(),
    windowSeconds: z.number().int().positive().optional(),
    concurrency: z.number().int().positive().optional(),
    queueSize: z.number().int().nonnegative().optional(),
    queueTimeoutMs: z.number().int().positive().optional(),
    quotaTokens: z.number().int().positive().optional(),
    quotaPeriodHours: z.number().int().positive().optional(),
  })
  .strict() satisfies z.ZodType<KeyLimits>;

/**
 * The most an account's keys may be given by an account console token, and what they run with
 * where their own limits say nothing: the gateway's `limits.default` overlaid by the account's own
 * `keyLimitCeiling` (set by the operator), member by member.
 */
export function keyLimitCeiling(defaults: KeyLimits, account: { keyLimitCeiling?: KeyLimits }): KeyLimits {
  return account.keyLimitCeiling ? { ...defaults, ...account.keyLimitCeiling } : defaults;
}

/**
 * The limits a key runs with: its account's ceiling (`keyLimitCeiling`) overlaid by the key's own
 * limits, member by member. One definition for the gateway's admission and the admin service's checks.
 */
export function effectiveKeyLimits(defaults: KeyLimits, account: { keyLimitCeiling?: KeyLimits }, key: { limits?: KeyLimits }): KeyLimits {
  const ceiling = keyLimitCeiling(defaults, account);
  return key.limits ? { ...ceiling, ...key.limits } : ceiling;
}
