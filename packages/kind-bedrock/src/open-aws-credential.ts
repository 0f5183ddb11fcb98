import { GatewayError, type KindCredential } from '@signalbox/core';
import { createRefreshingToken, type IssuedToken } from '@signalbox/upstream';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { regionOf, type BedrockAuthSettings } from './bedrock-auth-settings';
import { loadAWSSigning, type AWSSigner } from './sign-aws-request';

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
  Promise.resolve(loadAWSSigning()).catch(() => undefined);
  let signer: { identity: AwsCredentialIdentity; signer: AWSSigner } | undefined;
  return {
    headers: {},
    secrets: [],
    async authorize(request) {
      const current = keeper.current();
      const identity = identities.get(typeof current === 'string' ? current : await current)!;
      const signing = await loadAWSSigning();
      if (signer?.identity !== identity) signer = { identity, signer: signing.createAWSSigner(identity, region) };
      return signer.signer.sign(request, opening.now());
    },
  };
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
