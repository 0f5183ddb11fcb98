import type { Protocol } from '@switchyard/core';
import type { UpstreamConfig } from '../config/gateway-config';

/** Where each protocol's generation endpoint sits under an upstream's base URL. */
const PATHS: Record<Protocol, string> = {
  'openai-responses': '/responses',
  'openai-chat': '/chat/completions',
  'anthropic-messages': '/v1/messages',
};

/** The path and credential headers for calling one upstream (the key read from its environment variable). */
export function createUpstreamEndpoint(upstream: UpstreamConfig, environment: NodeJS.ProcessEnv) {
  const apiKey = upstream.apiKeyEnv ? environment[upstream.apiKeyEnv] : undefined;
  const headers: Record<string, string> = { ...upstream.headers };
  if (upstream.protocol === 'anthropic-messages') {
    headers['anthropic-version'] = upstream.anthropicVersion;
    if (apiKey) headers['x-api-key'] = apiKey;
  } else if (apiKey) {
    headers.authorization = `Bearer ${apiKey}`;
  }
  return { path: PATHS[upstream.protocol], headers };
}
