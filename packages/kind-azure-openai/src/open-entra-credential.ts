import type { TokenCredential, TokenCredentialOptions } from '@azure/identity';
import { GatewayError, type KindCredential } from '@signalbox/core';
import { openBearerTokenCredential, type IssuedToken } from '@signalbox/upstream';
import type { EntraAuthSettings } from './entra-auth-settings';

/** What opening an Entra credential needs besides its settings. */
export type EntraOpening = {
  environment: Readonly<Record<string, string | undefined>>;
  now(): number;
  rememberSecret(value: string): void;
  /** The host's options for `@azure/identity`'s HTTP calls (a proxy, trusted CAs). */
  identityOptions: TokenCredentialOptions;
};

/**
 * A credential that sends `Authorization: Bearer <token>`, the token from Microsoft Entra ID for
 * `settings.scope`, kept fresh ahead of its expiry (never fetched per request) and made a known
 * secret as soon as it arrives. The first token is asked for at once, so the first call need not
 * wait. A source whose secret's variable is unset is `missing`.
 */
export function openEntraCredential(settings: EntraAuthSettings, opening: EntraOpening): KindCredential {
  const make = identityOf(settings, opening);
  if (!make) return { headers: {}, secrets: [], missing: true };
  let identity: Promise<TokenCredential> | undefined;
  return openBearerTokenCredential({
    now: opening.now,
    fetch: async () => fetchToken(await (identity ??= loadIdentity().then(make)), settings.scope),
    onToken: opening.rememberSecret,
  });
}

/** `@azure/identity` as a dynamic import gives it. */
type Identity = Awaited<ReturnType<typeof importIdentity>>;

const importIdentity = () => import('@azure/identity');

/**
 * `@azure/identity`, loaded with the first token: an optional dependency, so hosts that use Azure
 * OpenAI with keys, or not at all, never install its tree. Missing, it refuses the credential.
 */
async function loadIdentity(): Promise<Identity> {
  try {
    return await importIdentity();
  } catch (error) {
    throw new GatewayError({
      code: 'UPSTREAM_AUTH_FAILED',
      message: 'Entra ID sign-in needs the @azure/identity package: install it next to @signalbox/kind-azure-openai.',
      cause: error,
    });
  }
}

/**
 * How to make the `@azure/identity` credential of the configured source once the package is
 * loaded; `undefined` when its secret is not in the environment.
 */
function identityOf(settings: EntraAuthSettings, opening: EntraOpening): ((identity: Identity) => TokenCredential) | undefined {
  const { environment } = opening;
  const options = {
    ...opening.identityOptions,
    ...(settings.authorityHost !== undefined && { authorityHost: settings.authorityHost }),
    ...(settings.disableInstanceDiscovery && { disableInstanceDiscovery: true }),
  };
  const tenantId = settings.tenantId ?? environment['AZURE_TENANT_ID'];
  const clientId = settings.clientId ?? environment['AZURE_CLIENT_ID'];
  switch (settings.source) {
    case 'client-secret': {
      const secret = environment[settings.clientSecretEnv ?? 'AZURE_CLIENT_SECRET'];
      if (!secret || !tenantId || !clientId) return undefined;
      return identity => new identity.ClientSecretCredential(tenantId, clientId, secret, options);
    }
    case 'client-certificate': {
      const certificatePath = settings.certificatePath ?? environment['AZURE_CLIENT_CERTIFICATE_PATH'];
      if (!certificatePath || !tenantId || !clientId) return undefined;
      return identity => new identity.ClientCertificateCredential(tenantId, clientId, { certificatePath }, options);
    }
    case 'workload-identity': {
      const tokenFilePath = environment['AZURE_FEDERATED_TOKEN_FILE'];
      if (!tokenFilePath || !tenantId || !clientId) return undefined;
      return identity => new identity.WorkloadIdentityCredential({ ...options, tenantId, clientId, tokenFilePath });
    }
    case 'managed-identity':
      return identity => new identity.ManagedIdentityCredential({ ...options, ...(clientId !== undefined && { clientId }) });
    case 'default':
      return identity =>
        new identity.DefaultAzureCredential({
          ...options,
          ...(tenantId !== undefined && { tenantId }),
          ...(clientId !== undefined && { managedIdentityClientId: clientId, workloadIdentityClientId: clientId }),
        });
  }
}

/** OAuth 2.0 token errors that are the credential's fault (RFC 6749 §5.2): it is refused until fixed, never retried. */
const REFUSALS = /^(?:invalid_client|unauthorized_client|invalid_grant|invalid_scope|invalid_request)\b/;

/** One token from Entra ID; a refusal (a wrong secret, an unknown client) or no usable source is the credential's fault, anything else the network's. */
async function fetchToken(identity: TokenCredential, scope: string): Promise<IssuedToken> {
  let issued: Awaited<ReturnType<TokenCredential['getToken']>>;
  try {
    issued = await identity.getToken(scope);
  } catch (error) {
    throw isRefusal(error)
      ? new GatewayError({ code: 'UPSTREAM_AUTH_FAILED', message: NO_TOKEN, cause: error })
      : new GatewayError({ code: 'UPSTREAM_UNREACHABLE', message: 'The gateway could not reach Microsoft Entra ID for a token.', cause: error });
  }
  if (!issued) throw new GatewayError({ code: 'UPSTREAM_AUTH_FAILED', message: NO_TOKEN });
  return { token: issued.token, expiresAt: issued.expiresOnTimestamp, ...(issued.refreshAfterTimestamp !== undefined && { refreshAt: issued.refreshAfterTimestamp }) };
}

const NO_TOKEN = 'Microsoft Entra ID gave the gateway no token for its Azure OpenAI upstream.';

/**
 * Whether Entra ID refused the credential itself: `@azure/identity` reports the token endpoint's
 * OAuth error code first in its message (`invalid_client: … AADSTS7000215 …`), and a source that is
 * not set up at all as `CredentialUnavailableError`.
 */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'CredentialUnavailableError' || error.name === 'AuthenticationError') return true;
  return REFUSALS.test(error.message);
}
