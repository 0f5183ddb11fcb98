import type { Protocol } from '@switchyard/core';
import type { UpstreamConfig } from '../config/gateway-config';

/** Where each protocol's generation endpoint sits under an upstream's base URL. */
const PATHS: Record<Protocol, string> = {
  'openai-responses': '/responses',
  'openai-chat': '/chat/completions',
  'anthropic-messages': '/v1/messages',
};

/**
 * The path and headers for calling one upstream: the configured extras, then credentials (the key
 * read from its environment variable) and the pinned `anthropic-version`. Names are lower-cased so a
 * configured `Anthropic-Version` replaces the pinned one instead of being sent twice (pitfall 30).
 */
export function createUpstreamEndpoint(upstream: UpstreamConfig, environment: NodeJS.ProcessEnv) {
  const apiKey = upstream.apiKeyEnv ? environment[upstream.apiKeyEnv] : undefined;
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(upstream.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  if (upstream.protocol === 'anthropic-messages') {
    headers['anthropic-version'] ??= upstream.anthropicVersion;
    if (apiKey) headers['x-api-key'] = apiKey;
  } else if (apiKey) {
    headers.authorization = `Bearer ${apiKey}`;
  }
  // A configured credential that is not in the environment: the upstream has no account to serve with.
  const missingCredential = upstream.apiKeyEnv !== undefined && !apiKey;
  return { path: PATHS[upstream.protocol], headers, missingCredential };
}
