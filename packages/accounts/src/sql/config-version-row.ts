import type { ConfigVersion, ConfigVersionSummary, NewConfigVersion } from '../config/config-version-store';

/** The columns of `config_versions` a listing reads (`document` and `diff` are read for one version only). */
export const CONFIG_VERSION_SUMMARY_COLUMNS = 'version, author, created_at, restored_from, changes';

/** The values of a new row, in the order `version, author, created_at, document, diff, changes, restored_from`. */
export function configVersionRowValues(version: NewConfigVersion, number: number, createdAt: number): unknown[] {
  return [number, version.author, createdAt, JSON.stringify(version.document), JSON.stringify(version.diff), version.diff.length, version.restoredFrom ?? null];
}

export function toConfigVersionSummary(row: Record<string, unknown>): ConfigVersionSummary {
  const restoredFrom = row['restored_from'];
  return {
    version: Number(row['version']),
    author: String(row['author']),
    createdAt: Number(row['created_at']),
    changes: Number(row['changes']),
    ...(restoredFrom !== null && restoredFrom !== undefined && { restoredFrom: Number(restoredFrom) }),
  };
}

export function toConfigVersion(row: Record<string, unknown> | undefined): ConfigVersion | undefined {
  if (!row) return undefined;
  const { changes: _changes, ...summary } = toConfigVersionSummary(row);
  return { ...summary, document: parseJSONColumn(row['document']), diff: parseJSONColumn(row['diff']) };
}

/** A JSON column as SQLite returns it (text) or PostgreSQL does (JSONB, already parsed). */
function parseJSONColumn<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
