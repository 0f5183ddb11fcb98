import { isSecretHeader } from '@signalbox/core';

/** What a secret value in a config document is shown as: in answers, diffs and audit entries. */
export const MASKED_SECRET = '[secret]';

type Path = readonly (string | number)[];

/**
 * Whether a value at `path` of a config document is a secret: a credential header's value
 * (`authorization`, `x-api-key`, … under an upstream's or a credential's `headers`), a key written
 * in the config instead of named by `apiKeyEnv`.
 */
export function isSecretPath(path: Path): boolean {
  const last = path.at(-1);
  if (path[0] !== 'upstreams' || typeof last !== 'string' || path.at(-2) !== 'headers' || !isSecretHeader(last)) return false;
  return path.length === 4 || (path.length === 6 && path[2] === 'credentials');
}

/** A copy of `value` (found at `path` of a document) with every secret in it masked. */
export function maskConfigSecrets<T>(value: T, path: Path = []): T {
  if (isSecretPath(path)) return (value === undefined ? value : MASKED_SECRET) as T;
  if (Array.isArray(value)) return value.map((item, index) => maskConfigSecrets(item, [...path, index])) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskConfigSecrets(item, [...path, key])])) as T;
}

/**
 * A changed document as it is to be saved: a secret left as `MASKED_SECRET` (an editor that loaded
 * the masked document and saved it back) keeps the value it has in `current`, so a secret is never
 * lost by an edit of something else. Paths of secrets still masked with nothing to keep are returned.
 */
export function keepMaskedSecrets(document: unknown, current: unknown, path: Path = []): { document: unknown; unknown: string[] } {
  if (isSecretPath(path) && document === MASKED_SECRET) {
    return current === undefined ? { document, unknown: [path.join('.')] } : { document: current, unknown: [] };
  }
  if (typeof document !== 'object' || document === null) return { document, unknown: [] };
  const unknown: string[] = [];
  const entries = Object.entries(document).map(([key, item]) => {
    const currentItem = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
    const kept = keepMaskedSecrets(item, currentItem, [...path, Array.isArray(document) ? Number(key) : key]);
    unknown.push(...kept.unknown);
    return [key, kept.document] as const;
  });
  return { document: Array.isArray(document) ? entries.map(([, item]) => item) : Object.fromEntries(entries), unknown };
}

/** The dotted paths of every secret value in a document. */
export function secretPathsIn(value: unknown, path: Path = []): string[] {
  if (isSecretPath(path)) return value === undefined ? [] : [path.join('.')];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => secretPathsIn(item, [...path, Array.isArray(value) ? Number(key) : key]));
}
