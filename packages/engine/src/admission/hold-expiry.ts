/** Time beyond a request's deadline before its hold may be released, for settling after the last byte. */
export const HOLD_EXPIRY_MARGIN_MS = 5 * 60 * 1000;

/**
 * When the hold of a request admitted at `now` expires: the route's overall deadline (after which
 * the request is ended anyway) plus the margin. A hold its process never settled is then released by
 * the store's sweep even when no process restarts.
 */
export function holdExpiresAt(now: number, deadlineMs: number): number {
  return now + deadlineMs + HOLD_EXPIRY_MARGIN_MS;
}
