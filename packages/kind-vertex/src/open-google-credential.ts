import { GatewayError, type KindCredential } from '@signalbox/core';
import { openBearerTokenCredential, type IssuedToken } from '@signalbox/upstream';
import type { AuthClient, OAuth2ClientOptions } from 'google-auth-library';
import type { GoogleAuthSettings } from './google-auth-settings';
import { loadGoogleClient, type GoogleClientSource } from './load-google-client';

/** What opening a Google credential needs besides its settings. */
export type GoogleOpening = {
  environment: Readonly<Record<string, string | undefined>>;
  now(): number;
  rememberSecret(value: string): void;
  /** The host's options for `google-auth-library`'s HTTP calls (a proxy, an agent with trusted CAs). */
  transporterOptions: OAuth2ClientOptions['transporterOptions'];
};

/**
 * How long before expiry `google-auth-library` hands out a new token rather than its cached one:
 * more than the gateway's own renewal lead (at most 5 minutes), so a renewal always gets a new token.
 */
const LIBRARY_RENEWAL_LEAD_MS = 6 * 60_000;

/**
 * A credential that sends `Authorization: Bearer <token>`, a Google OAuth access token for
 * `settings.scope` from the key file or Application Default Credentials, kept fresh ahead of its
 * expiry (never fetched per request) and made a known secret as soon as it arrives.
 */
export function openGoogleCredential(settings: GoogleAuthSettings, opening: GoogleOpening): KindCredential {
  const source: GoogleClientSource = {
    keyFile: settings.keyFile ?? (opening.environment['GOOGLE_APPLICATION_CREDENTIALS'] || undefined),
    scope: settings.scope,
    clientOptions: { eagerRefreshThresholdMillis: LIBRARY_RENEWAL_LEAD_MS, ...(opening.transporterOptions && { transporterOptions: opening.transporterOptions }) },
  };
  let client: Promise<AuthClient> | undefined;
  return openBearerTokenCredential({
    now: opening.now,
    fetch: async () => fetchToken(await (client ??= loadGoogleClient(source))),
    onToken: opening.rememberSecret,
  });
}

/** One access token from Google; a refusal (a wrong key, a disabled account) is the credential's fault, anything else the network's. */
async function fetchToken(client: AuthClient): Promise<IssuedToken> {
  let token: string | null | undefined;
  try {
    token = (await client.getAccessToken()).token;
  } catch (error) {
    throw isRefusal(error)
      ? new GatewayError({ code: 'UPSTREAM_AUTH_FAILED', message: NO_TOKEN, cause: error })
      : new GatewayError({ code: 'UPSTREAM_UNREACHABLE', message: 'The gateway could not reach Google for an access token.', cause: error });
  }
  const expiresAt = client.credentials.expiry_date;
  if (!token || typeof expiresAt !== 'number') throw new GatewayError({ code: 'UPSTREAM_AUTH_FAILED', message: NO_TOKEN });
  return { token, expiresAt };
}

const NO_TOKEN = 'Google gave the gateway no access token for its Vertex AI upstream.';

/**
 * Whether Google refused the credential itself: its token endpoint answers a bad assertion or an
 * unknown account with a 4xx (`invalid_grant`), which `google-auth-library` reports as a
 * `GaxiosError` carrying the response's status.
 */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { status?: unknown; response?: { status?: unknown } }).status ?? (error as { response?: { status?: unknown } }).response?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}
