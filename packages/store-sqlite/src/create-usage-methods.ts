import type { StatementSync } from 'node:sqlite';
import type { UsageLedger } from '@signalbox/accounts';
import {
  buildUsageWhere,
  decodeSequenceCursor,
  decodeUsageCursor,
  encodeSequenceCursor,
  encodeUsageCursor,
  USAGE_BUCKET_MS,
  USAGE_COLUMNS,
  summarizeUsageSql,
  toBalanceEvent,
  toUsageEntry,
  toUsageSummaryRow,
} from '@signalbox/accounts/sql';
import { deleteInChunks } from './delete-in-chunks';
import { USAGE_DELETE_CHUNK } from './prepare-usage-statements';
import { commitUsageRows, toUsageRowCommit } from './commit-usage-rows';
import type { LedgerContext } from './settle-in-transaction';

/**
 * The usage ledger on SQLite. `commitUsage` runs a whole batch in one `BEGIN IMMEDIATE`
 * transaction: each commit's hold (in memory or in the file) is settled exactly as `settle` settles it and its row inserted
 * with the charge decided, so a failure anywhere rolls back every charge and every row of the batch.
 * Queries are prepared once per filter shape and cached.
 */
export function createUsageMethods(context: LedgerContext): UsageLedger {
  const { database, statements, transaction } = context;
  const prepared = new Map<string, StatementSync>();
  const prepareOnce = (sql: string) => {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };

  return {
    async commitUsage(commits) {
      return commitUsageRows(context, commits.map(toUsageRowCommit));
    },
    async listUsage(filter, page) {
      const after = page.cursor === undefined ? undefined : decodeUsageCursor(page.cursor);
      const limit = Math.max(1, Math.floor(page.limit));
      const where = buildUsageWhere(filter, after);
      const statement = prepareOnce(
        `SELECT ${USAGE_COLUMNS.join(', ')} FROM usage ${where.sql} ORDER BY time DESC, request_id DESC LIMIT :limit`,
      );
      // One row more than the page says whether there is a next page.
      const rows = statement.all({ ...where.parameters, limit: limit + 1 });
      const entries = rows.slice(0, limit).map(toUsageEntry);
      const last = entries.at(-1);
      return { entries, ...(rows.length > limit && last && { nextCursor: encodeUsageCursor(last) }) };
    },
    async summarizeUsage(filter, options) {
      const where = buildUsageWhere(filter);
      const statement = prepareOnce(summarizeUsageSql(where.sql, options.groupBy, ':bucketMs'));
      const rows = statement.all({ ...where.parameters, bucketMs: USAGE_BUCKET_MS[options.bucket] });
      return rows.map(toUsageSummaryRow);
    },
    deleteUsageBefore: before => deleteInChunks(transaction, statements.deleteUsageChunk, before, USAGE_DELETE_CHUNK),
    async listBalanceEvents(accountId, page) {
      const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeSequenceCursor(page.cursor);
      const limit = Math.max(1, Math.floor(page.limit));
      const rows = statements.selectBalanceEvents.all(accountId, before, limit + 1);
      const events = rows.slice(0, limit).map(toBalanceEvent);
      const lastSequence = rows.length > limit ? Number(rows[limit - 1]!['seq']) : undefined;
      return {
        events,
        ...(lastSequence !== undefined && { nextCursor: encodeSequenceCursor(lastSequence) }),
      };
    },
  };
}
