import { decodeSequenceCursor, encodeSequenceCursor, type AuditLog } from '@signalbox/accounts';
import { AUDIT_COLUMNS, AUDIT_INSERT_COLUMNS, auditRowValues, buildAuditWhere, toAuditEntry } from '@signalbox/accounts/sql';
import { deleteInChunks } from './delete-in-chunks';
import type { StoreContext } from './store-context';

/** How many old entries one retention step deletes, so a large first sweep never holds its locks for long. */
const AUDIT_DELETE_CHUNK = 5000;
const DELETE_AUDIT_CHUNK = `DELETE FROM audit_log WHERE seq IN (SELECT seq FROM audit_log WHERE time < $1 ORDER BY seq LIMIT ${AUDIT_DELETE_CHUNK})`;

/**
 * The audit log on PostgreSQL: the `audit_log` table, appended to and read newest first by its
 * sequence. A trigger refuses every UPDATE and TRUNCATE, and a DELETE of an entry younger than a
 * day, so only retention removes entries.
 */
export function createAuditMethods({ sql }: StoreContext): AuditLog {
  const placeholders = AUDIT_INSERT_COLUMNS.split(', ').map((_column, index) => `$${index + 1}`).join(', ');
  return {
    async appendAudit(entry) {
      const row = await sql.row(`INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS}) VALUES (${placeholders}) RETURNING ${AUDIT_COLUMNS}`, auditRowValues(entry));
      return toAuditEntry(row!);
    },
    async listAudit(filter, page) {
      const before = page.cursor === undefined ? undefined : decodeSequenceCursor(page.cursor);
      const limit = Math.max(1, Math.floor(page.limit));
      const where = buildAuditWhere(filter, before, (_name, position) => `$${position}`);
      // One row more than the page says whether there is a next page.
      const rows = await sql.rows(`SELECT ${AUDIT_COLUMNS} FROM audit_log ${where.sql} ORDER BY seq DESC LIMIT $${where.values.length + 1}`, [...where.values, limit + 1]);
      const lastSequence = rows.length > limit ? Number(rows[limit - 1]!['seq']) : undefined;
      return { entries: rows.slice(0, limit).map(toAuditEntry), ...(lastSequence !== undefined && { nextCursor: encodeSequenceCursor(lastSequence) }) };
    },
    deleteAuditBefore: before => deleteInChunks(sql, DELETE_AUDIT_CHUNK, before, AUDIT_DELETE_CHUNK),
  };
}
