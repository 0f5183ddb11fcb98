import type { KindCredential, KindCredentialSource } from './upstream-kind';

/**
 * A credential that is a key read from its variable, sent in a header on every call: as
 * `Authorization: Bearer <key>`, or as the value of `header` (`x-api-key`, Azure's `api-key`). A
 * source naming a variable that is unset is `missing`; one naming none carries no key.
 */
export function openKeyCredential(
  source: KindCredentialSource,
  environment: Readonly<Record<string, string | undefined>>,
  scheme: { kind: 'bearer' } | { kind: 'header'; header: string },
): KindCredential {
  const key = source.apiKeyEnv === undefined ? undefined : environment[source.apiKeyEnv];
  if (!key) return { headers: {}, secrets: [], missing: source.apiKeyEnv !== undefined };
  return { headers: scheme.kind === 'bearer' ? { authorization: `Bearer ${key}` } : { [scheme.header]: key }, secrets: [key] };
}
