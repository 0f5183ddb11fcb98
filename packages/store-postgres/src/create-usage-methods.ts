import {
  decodeSequenceCursor,
  decodeUsageCursor,
  encodeSequenceCursor,
  encodeUsageCursor,
  USAGE_BUCKET_MS,
  type UsageLedger,
} from '@signalbox/accounts';
import {
  BALANCE_EVENT_COLUMNS,
  buildUsageWhere,
  summarizeUsageSql,
  toBalanceEvent,
  toUsageEntry,
  toUsageSummaryRow,
  USAGE_COLUMNS,
  type Placeholder,
} from '@signalbox/accounts/sql';
import { commitUsageBatch } from './commit-usage-batch';
import { deleteInChunks } from './delete-in-chunks';
import type { StoreContext } from './store-context';

/** How many old rows one retention step deletes, so a large first sweep never holds its locks for long. */
const USAGE_DELETE_CHUNK = 5000;
const DELETE_USAGE_CHUNK = `DELETE FROM usage WHERE request_id IN
  (SELECT request_id FROM usage WHERE time < $1 ORDER BY time LIMIT ${USAGE_DELETE_CHUNK})`;

/** PostgreSQL's numbered parameters (`$1`). */
const NUMBERED_PLACEHOLDER: Placeholder = (_name, position) => `$${position}`;

/**
 * The usage ledger on PostgreSQL. `commitUsage` runs a whole batch in one transaction of a few
 * statements (`commitUsageBatch`): each commit's hold is settled exactly as `settle` settles it and
 * its row inserted with the charge decided, so a failure anywhere rolls back every charge and every
 * row of the batch. A request id already in the table is not written again (and its hold, if any,
 * released without charge).
 */
export function createUsageMethods({ sql, transaction, now }: StoreContext): UsageLedger {
  return {
    async commitUsage(commits) {
      return transaction(session => commitUsageBatch(session, commits, now()));
    },
    async listUsage(filter, page) {
      const after = page.cursor === undefined ? undefined : decodeUsageCursor(page.cursor);
      const limit = Math.max(1, Math.floor(page.limit));
      const where = buildUsageWhere(filter, after, NUMBERED_PLACEHOLDER);
      // One row more than the page says whether there is a next page.
      const rows = await sql.rows(
        `SELECT ${USAGE_COLUMNS.join(', ')} FROM usage ${where.sql}
         ORDER BY time DESC, request_id DESC LIMIT $${where.values.length + 1}`,
        [...where.values, limit + 1],
      );
      const entries = rows.slice(0, limit).map(toUsageEntry);
      const last = entries.at(-1);
      return { entries, ...(rows.length > limit && last && { nextCursor: encodeUsageCursor(last) }) };
    },
    async summarizeUsage(filter, options) {
      const where = buildUsageWhere(filter, undefined, NUMBERED_PLACEHOLDER);
      const bucket = `$${where.values.length + 1}::bigint`;
      const rows = await sql.rows(summarizeUsageSql(where.sql, options.groupBy, bucket), [
        ...where.values,
        USAGE_BUCKET_MS[options.bucket],
      ]);
      return rows.map(toUsageSummaryRow);
    },
    deleteUsageBefore: before => deleteInChunks(sql, DELETE_USAGE_CHUNK, before, USAGE_DELETE_CHUNK),
    async listBalanceEvents(accountId, page) {
      const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeSequenceCursor(page.cursor);
      const limit = Math.max(1, Math.floor(page.limit));
      const rows = await sql.rows(
        `SELECT ${BALANCE_EVENT_COLUMNS} FROM balance_events WHERE account_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
        [accountId, before, limit + 1],
      );
      const events = rows.slice(0, limit).map(toBalanceEvent);
      const lastSequence = rows.length > limit ? Number(rows[limit - 1]!['seq']) : undefined;
      return { events, ...(lastSequence !== undefined && { nextCursor: encodeSequenceCursor(lastSequence) }) };
    },
  };
}
