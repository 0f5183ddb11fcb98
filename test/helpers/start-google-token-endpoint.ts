import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import { listenOnLoopback } from './listen-on-loopback';
import { readRequestText } from './read-request-text';

/** Where Google's OAuth 2.0 token endpoint is: the audience a service account's assertion names. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export type GoogleTokenEndpoint = {
  /** The emulator's token URL on 127.0.0.1 (the key files' `token_uri`). */
  tokenURL: string;
  /** The service account's email: the `iss` its assertions must carry. */
  clientEmail: string;
  /** A service-account key file's JSON for the account: its private key, or (`foreign`) another RSA key the endpoint does not know. */
  keyFile(options?: { foreign?: boolean }): Record<string, string>;
  /** Every access token it handed out, in order. */
  issued: string[];
  /** Token requests refused for a bad assertion. */
  refused: number;
  /** Whether `token` is one it handed out and not yet expired. */
  verify(token: string): boolean;
  close(): Promise<void>;
};

/**
 * Google's OAuth 2.0 token endpoint for one service account on 127.0.0.1: a `jwt-bearer` grant
 * whose assertion is checked as Google checks it (RS256 signature with the account's public key,
 * `iss` the account, `aud` the token URL, a `scope`, not expired) gets an access token living
 * `lifetimeSeconds`; any other assertion is refused with `invalid_grant`.
 */
export async function startGoogleTokenEndpoint(lifetimeSeconds = 2): Promise<GoogleTokenEndpoint> {
  const account = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const projectId = `signalbox-test-${randomBytes(3).toString('hex')}`;
  const clientEmail = `gateway@${projectId}.iam.gserviceaccount.com`;
  const expiries = new Map<string, number>();
  const issued: string[] = [];
  let refused = 0;
  const server = await listenOnLoopback((request, response) => {
    void answer(request, response).catch(() => response.writeHead(500).end());
  });
  const tokenURL = `${server.url}/token`;

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST' || request.url !== '/token') return json(response, 404, { error: 'not_found' });
    const form = new URLSearchParams(await readRequestText(request));
    if (form.get('grant_type') !== JWT_BEARER_GRANT) return json(response, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' });
    if (!(await assertionIsValid(form.get('assertion') ?? '', account.publicKey, clientEmail))) {
      refused += 1;
      return json(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    const token = `ya29.${randomBytes(32).toString('base64url')}`;
    expiries.set(token, Date.now() + lifetimeSeconds * 1000);
    issued.push(token);
    return json(response, 200, { access_token: token, expires_in: lifetimeSeconds, token_type: 'Bearer' });
  }

  return {
    tokenURL,
    clientEmail,
    keyFile({ foreign = false } = {}) {
      const key = foreign ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey : account.privateKey;
      return {
        type: 'service_account',
        project_id: projectId,
        private_key_id: randomBytes(20).toString('hex'),
        private_key: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: clientEmail,
        client_id: String(randomBytes(8).readBigUInt64BE()),
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: tokenURL,
      };
    },
    issued,
    get refused() {
      return refused;
    },
    verify(token) {
      return (expiries.get(token) ?? 0) > Date.now();
    },
    close: server.close,
  };
}

/** A service account's signed assertion, checked with the account's public key alone. */
async function assertionIsValid(assertion: string, publicKey: KeyObject, clientEmail: string): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(assertion, publicKey, { issuer: clientEmail, audience: GOOGLE_TOKEN_URL, algorithms: ['RS256'], requiredClaims: ['exp', 'iat'] });
    return typeof payload['scope'] === 'string' && payload['scope'].split(' ').includes(CLOUD_PLATFORM_SCOPE);
  } catch {
    return false;
  }
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
