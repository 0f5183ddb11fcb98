// A SigV4 check independent of the gateway's signer, shared by the benchmark's Bedrock upstream and
// the tests' Bedrock emulator: the signature recomputed with `aws4` over what arrived.
import aws4 from 'aws4';
import { createHash } from 'node:crypto';

/**
 * Whether `authorization` is the SigV4 signature `aws4` computes over the request as received (its
 * signed headers, path and body) with `credentials`. `aws4` takes a signed `x-amz-content-sha256`
 * as the body's hash on trust, so a request carrying one must also have a body with that hash.
 */
export function awsSignatureMatches({ method, path, headers, body, service, region, credentials, authorization, signedHeaderNames }) {
  const contentHash = headers['x-amz-content-sha256'];
  if (contentHash !== undefined && contentHash !== createHash('sha256').update(body).digest('hex')) return false;
  const signed = {};
  for (const name of signedHeaderNames) signed[name] = String(headers[name] ?? '');
  const signer = new aws4.RequestSigner({ method, host: signed.host, path, service, region, headers: signed, body, doNotModifyHeaders: true }, credentials);
  // aws4 reads the signing time from `x-amz-date` only when it may add headers; it must add none here.
  signer.datetime = signed['x-amz-date'] ?? '';
  return signer.authHeader() === authorization;
}
