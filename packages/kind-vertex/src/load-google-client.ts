import { readFile } from 'node:fs/promises';
import { GatewayError } from '@signalbox/core';
import type { AuthClient, OAuth2ClientOptions } from 'google-auth-library';

/** How the auth client is made: the key file (absent: Application Default Credentials), the scope, the library's client options. */
export type GoogleClientSource = { keyFile: string | undefined; scope: string; clientOptions: OAuth2ClientOptions };

const importLibrary = () => import('google-auth-library');

/** `google-auth-library` as a dynamic import gives it. */
type Library = Awaited<ReturnType<typeof importLibrary>>;

/**
 * The auth client for a source, `google-auth-library` loaded with the first token: an optional
 * dependency, so hosts without Vertex upstreams never install its tree. A service-account key file
 * becomes a `JWT` client (the library's way for a key file the operator holds); any other credential
 * file (workload identity federation, a user's) and Application Default Credentials go through
 * `GoogleAuth`. A missing library, file or default credential refuses the credential.
 */
export async function loadGoogleClient(source: GoogleClientSource): Promise<AuthClient> {
  let library: Library;
  try {
    library = await importLibrary();
  } catch (error) {
    throw new GatewayError({ code: 'UPSTREAM_AUTH_FAILED', message: 'Vertex AI needs the google-auth-library package: install it next to @signalbox/kind-vertex.', cause: error });
  }
  try {
    const serviceAccount = source.keyFile === undefined ? undefined : await readServiceAccount(source.keyFile);
    if (serviceAccount) {
      return new library.JWT({ ...source.clientOptions, email: serviceAccount.client_email, key: serviceAccount.private_key, keyId: serviceAccount.private_key_id, scopes: source.scope });
    }
    return await new library.GoogleAuth({ scopes: source.scope, clientOptions: source.clientOptions, ...(source.keyFile !== undefined && { keyFilename: source.keyFile }) }).getClient();
  } catch (error) {
    throw new GatewayError({ code: 'UPSTREAM_AUTH_FAILED', message: 'The gateway found no usable Google credential for its Vertex AI upstream.', cause: error });
  }
}

type ServiceAccountKey = { client_email: string; private_key: string; private_key_id?: string };

/** The key file's service account, or `undefined` for another kind of credential file. */
async function readServiceAccount(path: string): Promise<ServiceAccountKey | undefined> {
  const content = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  if (content['type'] !== 'service_account') return undefined;
  const { client_email: email, private_key: key, private_key_id: keyId } = content;
  if (typeof email !== 'string' || typeof key !== 'string') throw new Error('The service-account key file has no client_email or private_key.');
  return { client_email: email, private_key: key, ...(typeof keyId === 'string' && { private_key_id: keyId }) };
}
