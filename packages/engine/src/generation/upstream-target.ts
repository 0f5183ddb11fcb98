import { isSecretHeader, type Codec } from '@signalbox/core';
import type { UpstreamClient, UpstreamClientOptions } from '@signalbox/upstream';
import type { UpstreamConfig } from '../config/gateway-config';

/** One configured upstream, ready to call: its codec, its connection pool, its generation path. */
export type UpstreamTarget = {
  name: string;
  codec: Codec;
  client: UpstreamClient;
  path: string;
  /** The headers the upstream is called with (lower-case names): configured ones are merged with forwarded client flags. */
  headers?: Readonly<Record<string, string>>;
  /** The upstream's credential is configured but missing: it cannot be called (503, failover). */
  missingCredential: boolean;
};

/**
 * Opens the pool for one upstream through `openClient` (the engine's `upstreamClient` option). Its
 * headers are the configured extras, then the credential in the protocol's own scheme (the key read
 * from its environment variable) and the pinned version header. Names are lower-cased so a
 * configured `Anthropic-Version` replaces the pinned one instead of being sent twice.
 */
export function createUpstreamTarget(
  name: string,
  upstream: UpstreamConfig,
  codec: Codec,
  environment: NodeJS.ProcessEnv,
  openClient: (name: string, options: UpstreamClientOptions) => UpstreamClient,
): UpstreamTarget {
  const { descriptor } = codec;
  const apiKey = upstream.apiKeyEnv ? environment[upstream.apiKeyEnv] : undefined;
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(upstream.headers).map(([header, value]) => [header.toLowerCase(), value]),
  );
  if (descriptor.version) {
    headers[descriptor.version.header] ??= upstream.apiVersion ?? descriptor.version.upstreamDefault;
  }
  if (apiKey) {
    if (descriptor.credential.kind === 'bearer') headers.authorization = `Bearer ${apiKey}`;
    else headers[descriptor.credential.header] = apiKey;
  }
  return {
    name,
    codec,
    client: openClient(name, { ...upstream, headers }),
    path: descriptor.upstreamPath,
    headers,
    // A configured credential that is not in the environment: the upstream has no account to serve with.
    missingCredential: upstream.apiKeyEnv !== undefined && !apiKey,
  };
}

/**
 * The secrets an upstream is called with: the value of each credential header (its key, without a
 * `Bearer` scheme; a configured `api-key` or `x-goog-api-key` too), for the engine's recogniser.
 */
export function credentialValuesOf(target: UpstreamTarget): string[] {
  const credentialHeader = target.codec.descriptor.credential.kind === 'header' ? target.codec.descriptor.credential.header : 'authorization';
  return Object.entries(target.headers ?? {})
    .filter(([name]) => name === credentialHeader || isSecretHeader(name))
    .map(([, value]) => value.replace(/^(?:bearer|basic)\s+/i, ''));
}
