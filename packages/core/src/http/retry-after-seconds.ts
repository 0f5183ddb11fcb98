/**
 * A `Retry-After` header's value for a delay in ms: whole seconds, rounded up and at least 1, so a
 * client that honours it never comes back before the delay is over.
 * See https://www.rfc-editor.org/rfc/rfc9110#name-retry-after
 */
export function retryAfterSeconds(delayMs: number): number {
  return Math.max(1, Math.ceil(delayMs / 1000));
}
