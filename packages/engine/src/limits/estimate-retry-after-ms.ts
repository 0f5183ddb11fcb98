/** No concurrency refusal asks a client to come back sooner than this. */
export const MIN_RETRY_AFTER_MS = 1_000;

/** What the gate knows about one key when it refuses a request. */
export type SlotWaitInput = {
  /** Moving average of how long the key's slots were held, or `undefined` before any was released. */
  averageHoldMs: number | undefined;
  /** How long the key's longest-running request has held its slot so far (0 when none). */
  oldestHolderAgeMs: number;
  /** Requests still queued for the key; a retry would queue behind them. */
  waiting: number;
  concurrency: number;
};

/**
 * When a refused request could expect a concurrency slot, in whole ms:
 * - `holdMs = averageHoldMs ?? max(1000, oldestHolderAgeMs)` (with no history, the oldest request's age);
 * - `firstSlotMs = max(1000, holdMs − oldestHolderAgeMs)` (the oldest holder should finish first);
 * - `retryAfterMs = ceil(firstSlotMs + waiting × holdMs / concurrency)` (the queue drains `concurrency` at a time).
 */
export function estimateRetryAfterMs(input: SlotWaitInput): number {
  const holdMs = input.averageHoldMs ?? Math.max(MIN_RETRY_AFTER_MS, input.oldestHolderAgeMs);
  const firstSlotMs = Math.max(MIN_RETRY_AFTER_MS, holdMs - input.oldestHolderAgeMs);
  const queueMs = (input.waiting * holdMs) / Math.max(1, input.concurrency);
  return Math.ceil(firstSlotMs + queueMs);
}
