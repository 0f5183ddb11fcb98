import type { KindCredential } from '@signalbox/core';
import { createRefreshingToken, type RefreshingTokenOptions } from './create-refreshing-token';

/**
 * A kind's credential that sends `Authorization: Bearer <token>`, the token kept fresh ahead of its
 * expiry by `createRefreshingToken` (never fetched per request). The first token is asked for at
 * once, so the first call need not wait; a failure then is met again by the first call.
 */
export function openBearerTokenCredential(options: RefreshingTokenOptions): KindCredential {
  const token = createRefreshingToken(options);
  Promise.resolve(token.current()).catch(() => undefined);
  return {
    headers: {},
    secrets: [],
    authorize() {
      const current = token.current();
      return typeof current === 'string' ? { authorization: `Bearer ${current}` } : current.then(value => ({ authorization: `Bearer ${value}` }));
    },
  };
}
