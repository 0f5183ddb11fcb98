import type { ConfigVersionStore } from '@signalbox/accounts';
import { CONFIG_VERSION_SUMMARY_COLUMNS, configVersionRowValues, toConfigVersion, toConfigVersionSummary } from '@signalbox/accounts/sql';
import type { SQLInputValue } from 'node:sqlite';
import type { StoreContext } from './store-context';

/**
 * Config versions in the file: every process on it reads the newest with one read of the primary
 * key's end (what a gateway polls), and a version is written only as the next one after `expected`,
 * in one statement, so two writers racing for one number leave exactly one row.
 */
export function createConfigVersionMethods({ database }: StoreContext): ConfigVersionStore {
  const selectLatest = database.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM config_versions');
  const selectOne = database.prepare(`SELECT ${CONFIG_VERSION_SUMMARY_COLUMNS}, document, diff FROM config_versions WHERE version = ?`);
  const selectPage = database.prepare(`SELECT ${CONFIG_VERSION_SUMMARY_COLUMNS} FROM config_versions WHERE version < ? ORDER BY version DESC LIMIT ?`);
  const insertNext = database.prepare(
    `INSERT OR IGNORE INTO config_versions (version, author, created_at, document, diff, changes, restored_from)
     SELECT ?, ?, ?, ?, ?, ?, ? WHERE (SELECT COALESCE(MAX(version), 0) FROM config_versions) = ?`,
  );
  return {
    async latestConfigVersion() {
      return Number(selectLatest.get()!['version']);
    },
    async getConfigVersion(version) {
      return toConfigVersion(selectOne.get(version));
    },
    async listConfigVersions({ before, limit }) {
      return selectPage.all(before ?? Number.MAX_SAFE_INTEGER, limit).map(toConfigVersionSummary);
    },
    async appendConfigVersion(version, expected, now) {
      const values = configVersionRowValues(version, expected + 1, now) as SQLInputValue[];
      if (Number(insertNext.run(...values, expected).changes) === 0) return undefined;
      return toConfigVersion(selectOne.get(expected + 1));
    },
  };
}
