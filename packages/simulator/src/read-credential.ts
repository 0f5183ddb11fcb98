import type { IncomingHttpHeaders } from 'node:http';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function readBearerToken(authorization: string | undefined): string | undefined {
  const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  return token === '' ? undefined : token;
}

/**
 * The key a request carries, wherever its protocol puts it: `x-api-key` (Anthropic), `Authorization:
 * Bearer` (OpenAI, Anthropic OAuth), `api-key` (Azure OpenAI). '' when it carries none.
 */
export function readCredential(headers: IncomingHttpHeaders): string {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey !== '') return apiKey;
  const bearer = readBearerToken(headers.authorization);
  if (bearer !== undefined) return bearer;
  const azureKey = headers['api-key'];
  return typeof azureKey === 'string' ? azureKey : '';
}
