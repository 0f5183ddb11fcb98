import type { ConfigVersionStore } from '@signalbox/accounts';
import { CONFIG_VERSION_SUMMARY_COLUMNS, configVersionRowValues, toConfigVersion, toConfigVersionSummary } from '@signalbox/accounts/sql';
import type { StoreContext } from './store-context';

/**
 * Config versions every instance shares: the newest is one read of the primary key's end, and a
 * version is written only as the next one after `expected`, in one statement (two writers racing for
 * one number leave exactly one row). Each insert is announced by the table's trigger (`NOTIFY`).
 */
export function createConfigVersionMethods({ sql }: StoreContext): Omit<ConfigVersionStore, 'watchConfigVersions'> {
  return {
    async latestConfigVersion() {
      return Number((await sql.row('SELECT COALESCE(MAX(version), 0) AS version FROM config_versions'))!['version']);
    },
    async getConfigVersion(version) {
      return toConfigVersion(await sql.row(`SELECT ${CONFIG_VERSION_SUMMARY_COLUMNS}, document, diff FROM config_versions WHERE version = $1`, [version]));
    },
    async listConfigVersions({ before, limit }) {
      const rows = await sql.rows(
        `SELECT ${CONFIG_VERSION_SUMMARY_COLUMNS} FROM config_versions WHERE version < $1 ORDER BY version DESC LIMIT $2`,
        [before ?? 2_147_483_647, limit],
      );
      return rows.map(toConfigVersionSummary);
    },
    async appendConfigVersion(version, expected, now) {
      const row = await sql.row(
        `INSERT INTO config_versions (version, author, created_at, document, diff, changes, restored_from)
         SELECT $1, $2, $3, $4::jsonb, $5::jsonb, $6, $7 WHERE (SELECT COALESCE(MAX(version), 0) FROM config_versions) = $8
         ON CONFLICT (version) DO NOTHING
         RETURNING ${CONFIG_VERSION_SUMMARY_COLUMNS}, document, diff`,
        [...configVersionRowValues(version, expected + 1, now), expected],
      );
      return toConfigVersion(row);
    },
  };
}
