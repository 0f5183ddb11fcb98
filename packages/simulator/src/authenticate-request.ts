import type { IncomingHttpHeaders } from 'node:http';
import { readBearerToken, readCredential } from './read-credential';
import { simulatorError, type SimulatorError } from './simulator-error';

/** The OpenAI API's 401 for a wrong or revoked key, without the key it quotes in part. */
export const OPENAI_INVALID_KEY = simulatorError(401, 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', {
  code: 'invalid_api_key',
});

/** The Messages API's 401 for a wrong or revoked key. */
export const ANTHROPIC_INVALID_KEY = simulatorError(401, 'invalid x-api-key');

/**
 * OpenAI paths: the key must arrive as `Authorization: Bearer <key>` when one is configured.
 * Messages in the real wording of the OpenAI API; the key itself is never echoed.
 */
export function authenticateBearer(headers: IncomingHttpHeaders, apiKey: string | undefined): SimulatorError | undefined {
  if (apiKey === undefined) return undefined;
  const authorization = headers.authorization;
  if (authorization === undefined || authorization === '') {
    return simulatorError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", { code: null });
  }
  return readBearerToken(authorization) === apiKey ? undefined : OPENAI_INVALID_KEY;
}

/** `/v1/messages`: the key must arrive as `x-api-key` when one is configured. */
export function authenticateApiKeyHeader(headers: IncomingHttpHeaders, apiKey: string | undefined): SimulatorError | undefined {
  if (apiKey === undefined) return undefined;
  const value = headers['x-api-key'];
  if (value === undefined || value === '') return simulatorError(401, 'x-api-key header is required');
  return value === apiKey ? undefined : ANTHROPIC_INVALID_KEY;
}

/** The Gemini API's answer to a wrong or revoked key: 400 `INVALID_ARGUMENT`, reason `API_KEY_INVALID`. */
export const GOOGLE_INVALID_KEY = simulatorError(400, 'API key not valid. Please pass a valid API key.', { code: 'API_KEY_INVALID' });

/**
 * Gemini paths: the key must arrive as `x-goog-api-key`, the `key` query parameter or (Vertex AI's
 * shape) `Authorization: Bearer` when one is configured; none at all is Google's 403.
 */
export function authenticateGoogleKey(headers: IncomingHttpHeaders, apiKey: string | undefined, url: string): SimulatorError | undefined {
  if (apiKey === undefined) return undefined;
  const key = readCredential(headers, url);
  if (key === '') {
    return simulatorError(403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
  }
  return key === apiKey ? undefined : GOOGLE_INVALID_KEY;
}

/** `/v1/messages` needs an `anthropic-version` header, as the real API does. Its value is not checked. */
export function requireAnthropicVersion(headers: IncomingHttpHeaders): SimulatorError | undefined {
  const version = headers['anthropic-version'];
  return version === undefined || version === '' ? simulatorError(400, 'anthropic-version: header is required') : undefined;
}
