import type { StatementSync } from 'node:sqlite';
import { decodeSequenceCursor, encodeSequenceCursor, type AuditLog } from '@signalbox/accounts';
import { AUDIT_COLUMNS, AUDIT_INSERT_COLUMNS, auditRowValues, buildAuditWhere, toAuditEntry } from '@signalbox/accounts/sql';
import { deleteInChunks } from './delete-in-chunks';
import { USAGE_DELETE_CHUNK } from './prepare-usage-statements';
import type { StoreContext } from './store-context';

/**
 * The audit log on SQLite: the `audit_log` table, appended to and read newest first by its sequence,
 * never updated (a trigger refuses it). Listings are prepared once per filter shape; retention
 * deletes in chunks, each its own transaction, as the ledger's does.
 */
export function createAuditMethods({ database, transaction }: StoreContext): AuditLog {
  const insert = database.prepare(
    `INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS}) VALUES (${AUDIT_INSERT_COLUMNS.split(', ').map(() => '?').join(', ')}) RETURNING ${AUDIT_COLUMNS}`,
  );
  const deleteChunk = database.prepare(
    `DELETE FROM audit_log WHERE seq IN (SELECT seq FROM audit_log WHERE time < ? ORDER BY seq LIMIT ${USAGE_DELETE_CHUNK})`,
  );
  const prepared = new Map<string, StatementSync>();
  const prepareOnce = (sql: string) => prepared.get(sql) ?? prepared.set(sql, database.prepare(sql)).get(sql)!;
  return {
    async appendAudit(entry) {
      return toAuditEntry(insert.get(...auditRowValues(entry))!);
    },
    async listAudit(filter, page) {
      const before = page.cursor === undefined ? undefined : decodeSequenceCursor(page.cursor);
      const limit = Math.max(1, Math.floor(page.limit));
      const where = buildAuditWhere(filter, before, (_name, position) => `?${position}`);
      const statement = prepareOnce(`SELECT ${AUDIT_COLUMNS} FROM audit_log ${where.sql} ORDER BY seq DESC LIMIT ?${where.values.length + 1}`);
      // One row more than the page says whether there is a next page.
      const rows = statement.all(...where.values, limit + 1);
      const lastSequence = rows.length > limit ? Number(rows[limit - 1]!['seq']) : undefined;
      return { entries: rows.slice(0, limit).map(toAuditEntry), ...(lastSequence !== undefined && { nextCursor: encodeSequenceCursor(lastSequence) }) };
    },
    deleteAuditBefore: before => deleteInChunks(transaction, deleteChunk, before, USAGE_DELETE_CHUNK),
  };
}
