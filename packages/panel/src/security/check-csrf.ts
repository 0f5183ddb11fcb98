import { createHash, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '@signalbox/core';

export type CsrfCheckInput = {
  /** The `Origin` header, if sent. */
  origin: string | undefined;
  /** The `Sec-Fetch-Site` header, if sent. */
  fetchSite: string | undefined;
  /** This server's origin as the browser sees it (`https://host:port`). */
  expectedOrigin: string;
  /** `x-csrf-token` as sent, and the session's; omit both for the login itself. */
  sentToken?: string | undefined;
  sessionToken?: string;
};

/**
 * Refuses a state-changing panel request that a browser sent on another site's behalf: a foreign
 * `Origin` or a `Sec-Fetch-Site` other than `same-origin` (or `none`, typed by the user), and —
 * once logged in — a missing or wrong per-session token, compared in constant time. A request
 * carrying neither header (not a browser) must still carry the token.
 * See https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 */
export function checkCsrf(input: CsrfCheckInput): void {
  if (input.origin !== undefined && input.origin !== input.expectedOrigin)
    refuse('comes from another origin');
  if (input.fetchSite !== undefined && input.fetchSite !== 'same-origin' && input.fetchSite !== 'none')
    refuse('was sent by another site');
  if (input.sessionToken === undefined) return;
  if (!input.sentToken || !tokensEqual(input.sentToken, input.sessionToken))
    refuse("lacks the session's x-csrf-token");
}

function tokensEqual(sent: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

function refuse(why: string): never {
  throw new GatewayError({
    code: 'PANEL_REQUEST_FORBIDDEN',
    message: `This panel request ${why}; changes are accepted only from the panel page.`,
  });
}
