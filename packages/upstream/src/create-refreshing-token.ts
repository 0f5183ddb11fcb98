/** A bearer token as its issuer handed it out: when it expires and, when the issuer says, when to renew it (epoch ms). */
export type IssuedToken = { token: string; expiresAt: number; refreshAt?: number };

export type RefreshingTokenOptions = {
  /** Asks the issuer for a new token; rejects when it cannot. */
  fetch(): Promise<IssuedToken>;
  /** The clock tokens are judged on (epoch ms). */
  now(): number;
  /** Told each new token before anyone uses it (to make it a known secret). */
  onToken?(token: string): void;
};

/** A token kept fresh for the calls of one credential. */
export type RefreshingToken = {
  /**
   * The token to send now: the kept one while it is valid, at no cost (a renewal past its refresh
   * time runs in the background); a promise only when there is none valid (the first call, or after
   * a long idle), and then one fetch serves every caller waiting.
   */
  current(): string | Promise<string>;
};

/** The longest a token is renewed ahead of its expiry when the issuer does not say (Azure and Google tokens live an hour). */
const MAX_RENEWAL_LEAD_MS = 5 * 60_000;
/** The longest a token is taken for expired ahead of its time, for clock skew and the call's own travel. */
const MAX_EXPIRY_MARGIN_MS = 30_000;
/** The longest wait before a failed background renewal is tried again. */
const MAX_RETRY_WAIT_MS = 5_000;

/**
 * Keeps one bearer token fresh: renewed once past its refresh time (the issuer's, else half its
 * life, at most 5 minutes before expiry), from the first call after that, without making that call
 * wait. A failed renewal keeps the token while it is valid and is tried again after a short wait.
 */
export function createRefreshingToken(options: RefreshingTokenOptions): RefreshingToken {
  let kept: { token: string; refreshAt: number; usableUntil: number } | undefined;
  let renewal: Promise<string> | undefined;
  let nextTryAt = 0;
  const renew = (): Promise<string> => {
    renewal ??= options.fetch().then(
      issued => {
        renewal = undefined;
        options.onToken?.(issued.token);
        kept = timesOf(issued, options.now());
        return issued.token;
      },
      (error: unknown) => {
        renewal = undefined;
        throw error;
      },
    );
    return renewal;
  };
  return {
    current() {
      const now = options.now();
      if (kept === undefined || now >= kept.usableUntil) return renew();
      if (now >= kept.refreshAt && renewal === undefined && now >= nextTryAt) {
        const { usableUntil } = kept;
        renew().catch(() => {
          nextTryAt = options.now() + Math.min(MAX_RETRY_WAIT_MS, Math.max(0, usableUntil - options.now()) / 4);
        });
      }
      return kept.token;
    },
  };
}

/** When an issued token is renewed and until when it is sent. */
function timesOf(issued: IssuedToken, now: number): { token: string; refreshAt: number; usableUntil: number } {
  const life = Math.max(0, issued.expiresAt - now);
  const usableUntil = issued.expiresAt - Math.min(MAX_EXPIRY_MARGIN_MS, life / 10);
  const refreshAt = issued.refreshAt ?? issued.expiresAt - Math.min(MAX_RENEWAL_LEAD_MS, life / 2);
  return { token: issued.token, refreshAt: Math.min(refreshAt, usableUntil), usableUntil };
}
