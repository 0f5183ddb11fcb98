import { isSecretHeader, openKeyCredential, type Codec, type OpenedUpstreamKind } from '@signalbox/core';
import type { UpstreamClient, UpstreamClientOptions } from '@signalbox/upstream';
import type { UpstreamConfig } from '../config/gateway-config';
import { createCircuitBreaker } from './circuit-breaker';
import { SINGLE_CREDENTIAL_NAME, type CredentialPool, type PooledCredential } from './credential-pool';

/** Opens one client per credential of an upstream (the engine's `upstreamClient` option), by the upstream's name and the credential's. */
export type OpenUpstreamClient = (name: string, options: UpstreamClientOptions, credential: string) => UpstreamClient;

/** One credential as configured: `apiKeyEnv` (or `auth`) alone is a pool of one named `default`, and so is an upstream without a key. */
type CredentialSource = {
  name: string;
  apiKeyEnv?: string;
  auth?: Readonly<Record<string, unknown>>;
  weight: number;
  headers: Record<string, string>;
  connections?: number;
};

/**
 * The default kind of a protocol: its vendor's own API, each credential's key read from its
 * variable and sent in the protocol's scheme (`Authorization: Bearer`, `x-api-key`), at the
 * protocol's path for the call when it names the model (`upstreamCallPath`).
 */
export function defaultUpstreamKind(codec: Codec, environment: NodeJS.ProcessEnv): OpenedUpstreamKind {
  const { credential, upstreamCallPath } = codec.descriptor;
  return { openCredential: source => openKeyCredential(source, environment, credential), ...(upstreamCallPath && { path: upstreamCallPath }) };
}

/**
 * The credentials of one upstream, each with a client of its own (its connections, its headers),
 * and the upstream's circuit. A credential's headers are the upstream's configured ones, its own
 * over them, the pinned version header, then what its kind opens it with (its key in the cloud's
 * or protocol's scheme); names lower-cased, so a configured `Anthropic-Version` replaces the
 * pinned one. A credential its kind finds `missing` (its variable unset) is taken out
 * (`key-missing`) for good.
 */
export function openCredentialPool(
  name: string,
  upstream: UpstreamConfig,
  codec: Codec,
  kind: OpenedUpstreamKind,
  openClient: OpenUpstreamClient,
): CredentialPool {
  const sources: CredentialSource[] = upstream.credentials ?? [
    {
      name: SINGLE_CREDENTIAL_NAME,
      ...(upstream.apiKeyEnv !== undefined && { apiKeyEnv: upstream.apiKeyEnv }),
      ...(upstream.auth !== undefined && { auth: upstream.auth }),
      weight: 1,
      headers: {},
    },
  ];
  const credentials: PooledCredential[] = [];
  const secrets: string[] = [];
  const pool: CredentialPool = { upstream: name, protocol: codec.protocol, credentials, breaker: createCircuitBreaker(upstream.circuitBreaker), secrets };
  for (const source of sources) {
    const opened = kind.openCredential(source);
    const headers = { ...configuredHeaders(upstream, source, codec), ...opened.headers };
    secrets.push(...opened.secrets, ...secretHeaderValues(headers));
    const options: UpstreamClientOptions = { ...upstream, headers, connections: source.connections ?? upstream.connections };
    credentials.push({
      name: source.name,
      pool,
      client: openClient(name, options, source.name),
      headers,
      authorize: opened.authorize,
      weight: source.weight,
      apiKeyEnv: source.apiKeyEnv,
      inFlight: 0,
      coolingUntil: 0,
      // A configured credential that is not in the environment: it has no account to serve with.
      disabled: opened.missing ? 'key-missing' : undefined,
      breaker: createCircuitBreaker(upstream.circuitBreaker),
      lastErrorCode: undefined,
      lastErrorAt: undefined,
      current: 0,
    });
  }
  return pool;
}

function configuredHeaders(upstream: UpstreamConfig, source: CredentialSource, codec: Codec): Record<string, string> {
  const { descriptor } = codec;
  const headers: Record<string, string> = {};
  for (const [header, value] of Object.entries({ ...upstream.headers })) headers[header.toLowerCase()] = value;
  for (const [header, value] of Object.entries(source.headers)) headers[header.toLowerCase()] = value;
  if (descriptor.version) {
    headers[descriptor.version.header] ??= upstream.apiVersion ?? descriptor.version.upstreamDefault;
  }
  return headers;
}

/** The values of secret headers a credential's calls carry (a configured `api-key` or `authorization`), without a `Bearer` scheme. */
function secretHeaderValues(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers)
    .filter(([header]) => isSecretHeader(header))
    .map(([, value]) => value.replace(/^(?:bearer|basic)\s+/i, ''));
}
