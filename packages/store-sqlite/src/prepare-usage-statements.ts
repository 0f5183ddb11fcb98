import type { DatabaseSync } from 'node:sqlite';
import { BALANCE_EVENT_COLUMNS, USAGE_COLUMNS } from '@signalbox/accounts/sql';

/** How many old rows one retention step deletes, so a large first sweep never holds the write lock for long. */
export const USAGE_DELETE_CHUNK = 5000;

/** The fixed statements of the usage ledger and balance events (filtered queries are prepared per shape). */
export function prepareUsageStatements(database: DatabaseSync) {
  const prepare = (sql: string) => database.prepare(sql);
  return {
    selectUsageExists: prepare('SELECT 1 AS found FROM usage WHERE request_id = ?'),
    insertUsage: prepare(
      `INSERT INTO usage (${USAGE_COLUMNS.join(', ')}) VALUES (${USAGE_COLUMNS.map(() => '?').join(', ')})`,
    ),
    deleteUsageChunk: prepare(
      `DELETE FROM usage WHERE rowid IN (SELECT rowid FROM usage WHERE time < ? ORDER BY time LIMIT ${USAGE_DELETE_CHUNK})`,
    ),
    insertBalanceEvent: prepare(
      `INSERT INTO balance_events (id, account_id, time, kind, delta_micros, balance_after_micros) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    /** Newest first: the account's events before sequence number `?2`. */
    selectBalanceEvents: prepare(
      `SELECT ${BALANCE_EVENT_COLUMNS} FROM balance_events WHERE account_id = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3`,
    ),
  };
}
