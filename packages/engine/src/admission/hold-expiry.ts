/**
 * The longest a request is assumed to run when nothing bounds it more tightly: one hour. Its hold
 * expires this long (plus the margin) after admission, so a hold its process never settled is
 * released by the store's sweep even when no process restarts.
 */
export const DEFAULT_REQUEST_DEADLINE_MS = 60 * 60 * 1000;

/** Time beyond a request's deadline before its hold may be released, for settling after the last byte. */
export const HOLD_EXPIRY_MARGIN_MS = 5 * 60 * 1000;

/**
 * When the hold of a request admitted at `now` expires: its deadline plus the margin. Routes have
 * no overall deadline of their own yet, so the documented default bounds every request.
 */
export function holdExpiresAt(now: number): number {
  return now + DEFAULT_REQUEST_DEADLINE_MS + HOLD_EXPIRY_MARGIN_MS;
}
