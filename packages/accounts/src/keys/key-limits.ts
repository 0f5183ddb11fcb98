import { z } from 'zod';

/**
 * Per-key limits; an absent member means "no limit of that kind". The same shape sets a key's own
 * limits (admin API, CLI) and the gateway config's `limits.default`, which a key's own limits
 * override member by member.
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
