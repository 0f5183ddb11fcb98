import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import { readRequestText } from './read-request-text';

/** The audience of a token for Azure OpenAI (the scope without `/.default`). */
const AUDIENCE = 'https://cognitiveservices.azure.com';

export type EntraTokenEndpoint = {
  /** `https://127.0.0.1:<port>`: the `authorityHost` to give `@azure/identity`. */
  authorityHost: string;
  /** The PEM of its self-signed certificate, for the caller's `tlsOptions.ca`. */
  certificate: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** Every token it handed out, in order. */
  issued: string[];
  /** Token requests refused for a wrong secret or client. */
  refused: number;
  /** Whether `token` is one of its own, for Azure OpenAI, and not expired (checked with its public key alone). */
  verify(token: string): Promise<boolean>;
  close(): Promise<void>;
};

/**
 * Microsoft Entra ID's OAuth 2.0 client-credentials flow on 127.0.0.1 over TLS (a certificate made
 * by `openssl` for the run): the tenant's OpenID metadata, and `/{tenant}/oauth2/v2.0/token`, which
 * checks the client's id and secret and hands out RS256 access tokens for the Cognitive Services
 * scope that live `lifetimeSeconds`. Tokens are verified with the public key, as a resource would.
 */
export async function startEntraTokenEndpoint(lifetimeSeconds = 2): Promise<EntraTokenEndpoint> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const tenantId = randomUUID();
  const clientId = randomUUID();
  const clientSecret = `entra~${randomBytes(18).toString('base64url')}`;
  const { key, certificate } = selfSignedCertificate();
  const issued: string[] = [];
  let refused = 0;
  const server = createServer({ key, cert: certificate }, (request, response) => {
    void answer(request, response).catch(() => response.writeHead(500).end());
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const authorityHost = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${authorityHost}/${tenantId}/v2.0`;

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', authorityHost).pathname;
    if (request.method === 'GET' && path.endsWith('/.well-known/openid-configuration')) {
      return json(response, 200, openIdMetadata(authorityHost, tenantId));
    }
    if (request.method !== 'POST' || path !== `/${tenantId}/oauth2/v2.0/token`) return json(response, 404, { error: 'not_found' });
    const form = new URLSearchParams(await readRequestText(request));
    if (form.get('grant_type') !== 'client_credentials' || form.get('scope') !== `${AUDIENCE}/.default`) {
      return json(response, 400, { error: 'invalid_request', error_description: 'AADSTS900144: unsupported grant or scope.' });
    }
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
      refused += 1;
      return json(response, 401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    }
    const token = await signToken(privateKey, issuer, clientId, lifetimeSeconds);
    issued.push(token);
    return json(response, 200, { token_type: 'Bearer', expires_in: lifetimeSeconds, ext_expires_in: lifetimeSeconds, access_token: token });
  }

  return {
    authorityHost,
    certificate,
    tenantId,
    clientId,
    clientSecret,
    issued,
    get refused() {
      return refused;
    },
    async verify(token) {
      try {
        await jwtVerify(token, publicKey, { issuer, audience: AUDIENCE, algorithms: ['RS256'] });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
    },
  };
}

async function signToken(key: CryptoKey, issuer: string, clientId: string, lifetimeSeconds: number): Promise<string> {
  // Rounded up: `exp` is in whole seconds, and a token must live at least the `expires_in` it is handed out with.
  const now = Math.ceil(Date.now() / 1000);
  return new SignJWT({ appid: clientId, roles: ['Cognitive Services OpenAI User'], jti: randomUUID() })
    .setProtectedHeader({ alg: 'RS256', kid: 'emulated-signing-key' })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setSubject(clientId)
    .setIssuedAt(now)
    .setNotBefore(now - 1)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(key);
}

/** What MSAL reads of a tenant's authority before it asks for a token. */
function openIdMetadata(host: string, tenantId: string) {
  return {
    token_endpoint: `${host}/${tenantId}/oauth2/v2.0/token`,
    authorization_endpoint: `${host}/${tenantId}/oauth2/v2.0/authorize`,
    end_session_endpoint: `${host}/${tenantId}/oauth2/v2.0/logout`,
    issuer: `${host}/${tenantId}/v2.0`,
    jwks_uri: `${host}/${tenantId}/discovery/v2.0/keys`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
  };
}

/** A key and self-signed certificate for 127.0.0.1, made by the system's `openssl`. */
function selfSignedCertificate(): { key: string; certificate: string } {
  const output = execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', '-', '-out', '-'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/.exec(output)![0];
  const certificate = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(output)![0];
  return { key, certificate };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
