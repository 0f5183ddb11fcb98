import type { SignableRequest } from '@signalbox/core';
import type { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import { loadOnce } from './load-once';

/** Signs calls with one identity for one region: the SigV4 headers of a call, over the call's own. */
export type AWSSigner = {
  sign(request: Pick<SignableRequest, 'url' | 'headers' | 'body'>, now: number): Promise<Record<string, string>>;
};

/** Makes a SigV4 signer for the service `bedrock`, once per identity (it caches the signing key per day). */
export type AWSSigning = { createAWSSigner(identity: AwsCredentialIdentity, region: string): AWSSigner };

/**
 * `@smithy/signature-v4`, loaded with the first SigV4 credential and kept: several MiB a gateway
 * that signs nothing never holds, and no call waits for an import once it is loaded.
 */
export const loadAWSSigning = loadOnce(async (): Promise<AWSSigning> => {
  const [{ SignatureV4: Signer }, { Hash }] = await Promise.all([import('@smithy/signature-v4'), import('@smithy/core/serde')]);
  /** SHA-256 by Node's own crypto: the body's hash is the one part of a signature that grows with the request. */
  class NodeSHA256 extends Hash {
    constructor(secret?: ConstructorParameters<typeof Hash>[1]) {
      super('sha256', secret);
    }
  }
  return {
    createAWSSigner(identity, region) {
      const signer = new Signer({ service: 'bedrock', region, credentials: identity, sha256: NodeSHA256 });
      return { sign: (request, now) => signedHeaders(signer, request, now) };
    },
  };
});

/** The SigV4 headers of one call, over the call's own. */
async function signedHeaders(signer: SignatureV4, request: Pick<SignableRequest, 'url' | 'headers' | 'body'>, now: number): Promise<Record<string, string>> {
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
