import { isSecretHeader, type Codec } from '@signalbox/core';
import type { UpstreamClient, UpstreamClientOptions } from '@signalbox/upstream';
import type { UpstreamConfig } from '../config/gateway-config';
import { createCircuitBreaker } from './circuit-breaker';
import { SINGLE_CREDENTIAL_NAME, type CredentialPool, type PooledCredential } from './credential-pool';

/** Opens one client per credential of an upstream (the engine's `upstreamClient` option), by the upstream's name and the credential's. */
export type OpenUpstreamClient = (name: string, options: UpstreamClientOptions, credential: string) => UpstreamClient;

/** One credential as configured: `apiKeyEnv` alone is a pool of one named `default`, and so is an upstream without a key. */
type CredentialSource = { name: string; apiKeyEnv?: string; weight: number; headers: Record<string, string>; connections?: number };

/**
 * The credentials of one upstream, each with a client of its own (its connections, its headers),
 * and the upstream's circuit. A credential's headers are the upstream's configured ones, its own
 * over them, then its key in the protocol's scheme (read from its variable) and the pinned version
 * header; names lower-cased, so a configured `Anthropic-Version` replaces the pinned one. A
 * credential whose variable is unset is taken out (`key-missing`) for good.
 */
export function openCredentialPool(
  name: string,
  upstream: UpstreamConfig,
  codec: Codec,
  environment: NodeJS.ProcessEnv,
  openClient: OpenUpstreamClient,
): CredentialPool {
  const sources: CredentialSource[] = upstream.credentials ?? [
    { name: SINGLE_CREDENTIAL_NAME, ...(upstream.apiKeyEnv !== undefined && { apiKeyEnv: upstream.apiKeyEnv }), weight: 1, headers: {} },
  ];
  const credentials: PooledCredential[] = [];
  const pool: CredentialPool = { upstream: name, protocol: codec.protocol, credentials, breaker: createCircuitBreaker(upstream.circuitBreaker) };
  for (const source of sources) {
    const apiKey = source.apiKeyEnv === undefined ? undefined : environment[source.apiKeyEnv];
    const headers = credentialHeaders(upstream, source, codec, apiKey);
    const options: UpstreamClientOptions = { ...upstream, headers, connections: source.connections ?? upstream.connections };
    credentials.push({
      name: source.name,
      pool,
      client: openClient(name, options, source.name),
      headers,
      weight: source.weight,
      apiKeyEnv: source.apiKeyEnv,
      inFlight: 0,
      coolingUntil: 0,
      // A configured credential that is not in the environment: it has no account to serve with.
      disabled: source.apiKeyEnv !== undefined && !apiKey ? 'key-missing' : undefined,
      breaker: createCircuitBreaker(upstream.circuitBreaker),
      lastErrorCode: undefined,
      lastErrorAt: undefined,
      current: 0,
    });
  }
  return pool;
}

function credentialHeaders(upstream: UpstreamConfig, source: CredentialSource, codec: Codec, apiKey: string | undefined): Record<string, string> {
  const { descriptor } = codec;
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries({ ...upstream.headers })) headers[header.toLowerCase()] = value;
  for (const [header, value] of Object.entries(source.headers)) headers[header.toLowerCase()] = value;
  if (descriptor.version) {
    headers[descriptor.version.header] ??= upstream.apiVersion ?? descriptor.version.upstreamDefault;
  }
  if (apiKey) {
    if (descriptor.credential.kind === 'bearer') headers.authorization = `Bearer ${apiKey}`;
    else headers[descriptor.credential.header] = apiKey;
  }
  return headers;
}

/**
 * The secrets a pool's calls carry: the value of each credential header (its key, without a
 * `Bearer` scheme; a configured `api-key` or `x-goog-api-key` too), for the engine's recogniser.
 */
export function credentialValuesOf(pool: CredentialPool, codec: Codec): string[] {
  const credentialHeader = codec.descriptor.credential.kind === 'header' ? codec.descriptor.credential.header : 'authorization';
  return pool.credentials.flatMap(credential =>
    Object.entries(credential.headers)
      .filter(([header]) => header === credentialHeader || isSecretHeader(header))
      .map(([, value]) => value.replace(/^(?:bearer|basic)\s+/i, '')),
  );
}
