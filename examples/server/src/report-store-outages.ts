import type { AccountStore } from '@signalbox/accounts';
import { GatewayError } from '@signalbox/core';

/** Node's socket errors: the database host refused, dropped or never answered the connection. */
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's own "not now" answers (https://www.postgresql.org/docs/current/errcodes-appendix.html):
 * class 08 (connection exception), 57P01–57P03 (the server shutting down or starting up) and 53300
 * (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3]$|53300$)/;

/**
 * True for a failure that says the database cannot be reached right now (as opposed to a bug or a
 * constraint): a socket error, a PostgreSQL connection-class SQLSTATE, or `pg`'s own messages for a
 * connection that ended, a pool that could not connect in time or a statement left unanswered.
 */
export function isStoreUnreachable(error: unknown): boolean {
  // Duck-typed, not `instanceof Error`: socket errors are made by Node's internals, which in a test
  // runner's sandbox belong to another realm.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (Array.isArray(errors) && errors.some(isStoreUnreachable)) return true;
  return typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(message);
}

/**
 * The store as the gateway sees it: every call that fails because the database cannot be reached
 * rejects with 503 `STORE_UNAVAILABLE` (retryable, `Retry-After: 1`) instead of the driver's error,
 * so the caller gets a 503 in its protocol's envelope, never a 500, and a request whose key lookup
 * or hold could not be made is refused before anything is generated. Other failures pass unchanged.
 * The driver's error stays in `cause`, for the log; its message never reaches the caller.
 */
export function reportStoreOutages(store: AccountStore): AccountStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const result: unknown = value.apply(target, args);
          return result instanceof Promise ? result.catch(rethrowAsUnavailable) : result;
        } catch (error) {
          return rethrowAsUnavailable(error);
        }
      };
    },
  });
}

function rethrowAsUnavailable(error: unknown): never {
  if (!isStoreUnreachable(error)) throw error;
  throw new GatewayError({
    code: 'STORE_UNAVAILABLE',
    message: 'The gateway cannot reach its database, so this request was not served. Retry shortly.',
    retryAfterMs: 1_000,
    cause: error,
  });
}
