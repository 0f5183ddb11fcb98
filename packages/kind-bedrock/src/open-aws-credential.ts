import { GatewayError, type KindCredential } from '@signalbox/core';
import { createRefreshingToken, type IssuedToken } from '@signalbox/upstream';
import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, SourceData } from '@smithy/types';
import { regionOf, type BedrockAuthSettings } from './bedrock-auth-settings';

/** What opening a SigV4 credential needs besides its settings. */
export type AWSOpening = {
  baseURL: string;
  environment: Readonly<Record<string, string | undefined>>;
  now(): number;
  rememberSecret(value: string): void;
};

/**
 * A credential that signs every call with SigV4 for the `bedrock` service: the access key from the
 * AWS SDK's default provider chain (environment, shared profile and SSO, web identity, container
 * and instance metadata), kept fresh ahead of its expiry and never fetched per request; its key ID,
 * secret and session token made known secrets the moment they arrive. Asked for at once, so the
 * first call need not wait. Without a region it is `missing`.
 */
export function openAWSCredential(settings: BedrockAuthSettings, opening: AWSOpening): KindCredential {
  const region = regionOf(settings, opening.baseURL, opening.environment);
  if (region === undefined) return { headers: {}, secrets: [], missing: true };
  let provider: Promise<AwsCredentialIdentityProvider> | undefined;
  const identities = new Map<string, AwsCredentialIdentity>();
  const keeper = createRefreshingToken({
    now: opening.now,
    async fetch() {
      const identity = await fetchIdentity(await (provider ??= loadProvider(settings)));
      for (const secret of [identity.accessKeyId, identity.secretAccessKey, identity.sessionToken]) if (secret) opening.rememberSecret(secret);
      // The one before stays for the calls that read its ID just before this one was kept.
      for (const id of [...identities.keys()].slice(0, -1)) identities.delete(id);
      identities.set(identity.accessKeyId, identity);
      return issuedOf(identity);
    },
  });
  Promise.resolve(keeper.current()).catch(() => undefined);
  const signerOf = (identity: AwsCredentialIdentity) => new SignatureV4({ service: 'bedrock', region, credentials: identity, sha256: NodeSHA256 });
  let signer: { identity: AwsCredentialIdentity; signer: SignatureV4 } | undefined;
  return {
    headers: {},
    secrets: [],
    async authorize(request) {
      const current = keeper.current();
      const identity = identities.get(typeof current === 'string' ? current : await current)!;
      if (signer?.identity !== identity) signer = { identity, signer: signerOf(identity) };
      return signedHeaders(signer.signer, request, opening.now());
    },
  };
}

/** The SigV4 headers of one call, over the call's own. */
async function signedHeaders(
  signer: SignatureV4,
  request: { url: string; headers: Readonly<Record<string, string>>; body: string },
  now: number,
): Promise<Record<string, string>> {
  const url = new URL(request.url);
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  // The path goes as sent (a model ID's `:` as `%3A`); the signer escapes it once more, as SigV4 wants for every service but S3.
  const signed = await signer.sign(
    { method: 'POST', protocol: url.protocol, hostname: url.hostname, ...(url.port !== '' && { port: Number(url.port) }), path: url.pathname, query, headers: { ...request.headers, host: url.host }, body: request.body },
    { signingDate: new Date(now) },
  );
  // What the signer added: `authorization`, `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token` for temporary keys.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host' && request.headers[name] === undefined) headers[name] = value;
  return headers;
}

/** SHA-256 by Node's own crypto: the body's hash is the one part of a signature that grows with the request. */
class NodeSHA256 extends Hash {
  constructor(secret?: SourceData) {
    super('sha256', secret);
  }
}

/** The keeper tracks an identity by its access key ID; one without an expiry is kept for good. */
function issuedOf(identity: AwsCredentialIdentity): IssuedToken {
  return { token: identity.accessKeyId, expiresAt: identity.expiration?.getTime() ?? Number.POSITIVE_INFINITY };
}

const importProviders = () => import('@aws-sdk/credential-providers');

/**
 * The default chain of `@aws-sdk/credential-providers`, loaded with the first credential: an
 * optional dependency, so hosts that call Bedrock with API keys, or not at all, never install it.
 */
async function loadProvider(settings: BedrockAuthSettings): Promise<AwsCredentialIdentityProvider> {
  let providers: Awaited<ReturnType<typeof importProviders>>;
  try {
    providers = await importProviders();
  } catch (error) {
    throw new GatewayError({ code: 'UPSTREAM_AUTH_FAILED', message: 'SigV4 signing needs the @aws-sdk/credential-providers package: install it next to @signalbox/kind-bedrock.', cause: error });
  }
  return providers.fromNodeProviderChain(settings.profile === undefined ? {} : { profile: settings.profile });
}

/** One identity from the chain; none found is the credential's fault, anything else the network's. */
async function fetchIdentity(provider: AwsCredentialIdentityProvider): Promise<AwsCredentialIdentity> {
  try {
    return await provider();
  } catch (error) {
    const refused = error instanceof Error && (error.name === 'CredentialsProviderError' || error.name === 'ProviderError');
    throw refused
      ? new GatewayError({ code: 'UPSTREAM_AUTH_FAILED', message: 'No AWS credentials were found for the Bedrock upstream.', cause: error })
      : new GatewayError({ code: 'UPSTREAM_UNREACHABLE', message: 'The gateway could not fetch AWS credentials for its Bedrock upstream.', cause: error });
  }
}
