import type { IncomingHttpHeaders } from 'node:http';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function readBearerToken(authorization: string | undefined): string | undefined {
  const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  return token === '' ? undefined : token;
}

/**
 * The key a request carries, wherever its protocol puts it: `x-api-key` (Anthropic), `Authorization:
 * Bearer` (OpenAI, Anthropic OAuth, Vertex AI), `api-key` (Azure OpenAI), `x-goog-api-key` or the
 * `key` query parameter of `url` (Gemini). '' when it carries none.
 */
export function readCredential(headers: IncomingHttpHeaders, url = ''): string {
  for (const name of ['x-api-key', 'x-goog-api-key'] as const) {
    const value = headers[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  const bearer = readBearerToken(headers.authorization);
  if (bearer !== undefined) return bearer;
  const azureKey = headers['api-key'];
  if (typeof azureKey === 'string' && azureKey !== '') return azureKey;
  const query = url.indexOf('?');
  return query === -1 ? '' : (new URLSearchParams(url.slice(query + 1)).get('key') ?? '');
}
