import type { PresentedIdentity } from '@signalbox/accounts';

/**
 * The page's one way to the panel API: same-origin `fetch` with the session cookie, and the CSRF
 * token (kept in this module's memory only, never in storage or the URL) on every change.
 */
export const base = document.querySelector<HTMLMetaElement>('meta[name="panel-base"]')?.content ?? '/panel';

/** Who the session is, as the panel API presents it (type-only: nothing of the package enters the bundle). */
export type Identity = PresentedIdentity;
export type Session = {
  identity: Identity;
  /**
   * The account an account session belongs to, and the most its keys' limits may be (both null
   * for the admin console).
   */
  me: { kind: string; account: { id: string; name: string } | null; keyLimitCeiling: Record<string, number> | null };
  csrfToken: string;
  expiresAt: string;
  baseURL: string;
};

/** An answer of the panel API that was not 2xx, with the service code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSessionLost: () => void = () => {};

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when an answer says the session is gone, so the page can show the login again. */
export function whenSessionLost(listener: () => void): void {
  onSessionLost = listener;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (response.status === 204) return undefined as T;
  const answer = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  if (!response.ok) {
    if (response.status === 401 && path !== '/login') onSessionLost();
    throw new ApiError(
      response.status,
      answer.error?.code ?? 'UNKNOWN',
      answer.error?.message ?? `HTTP ${response.status}`,
    );
  }
  return answer as T;
}

/** A query string from the filled members of `values` (empty ones left out). */
export function toQuery(values: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}
