import { createId } from '@signalbox/core';
import type { AuditEntry, AuditFilter, NewAuditEntry } from '../audit/audit-log';
import { createWhereBuilder, type Placeholder } from './usage-where';

/** The columns of an `audit_log` row a read returns, `seq` (its place in the log) first. */
export const AUDIT_COLUMNS = 'seq, id, time, actor, account_id, entity_type, entity_id, action, before_json, after_json, ip, user_agent, request_id';

/** The columns an append writes, in the order of `auditRowValues`. */
export const AUDIT_INSERT_COLUMNS = 'id, time, actor, account_id, entity_type, entity_id, action, before_json, after_json, ip, user_agent, request_id';

/** The values of a new `audit_log` row, in the order of `AUDIT_INSERT_COLUMNS`: before and after as JSON text. */
export function auditRowValues(entry: NewAuditEntry): Array<string | number | null> {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  return [
    createId('aud_'),
    entry.time,
    entry.actor,
    entry.accountId ?? null,
    entry.entityType,
    entry.entityId,
    entry.action,
    json(entry.before),
    json(entry.after),
    entry.ip ?? null,
    entry.userAgent ?? null,
    entry.requestId ?? null,
  ];
}

/** An entry from its row (`time` as a number whatever the driver returns; JSON parsed). */
export function toAuditEntry(row: Record<string, unknown>): AuditEntry {
  const optional = (column: string) => (row[column] === null || row[column] === undefined ? undefined : String(row[column]));
  const json = (column: string) => (row[column] === null || row[column] === undefined ? undefined : (JSON.parse(String(row[column])) as unknown));
  const entry = {
    id: String(row['id']),
    time: Number(row['time']),
    actor: String(row['actor']),
    accountId: optional('account_id'),
    entityType: String(row['entity_type']),
    entityId: String(row['entity_id']),
    action: String(row['action']),
    before: json('before_json'),
    after: json('after_json'),
    ip: optional('ip'),
    userAgent: optional('user_agent'),
    requestId: optional('request_id'),
  };
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as AuditEntry;
}

const EQUALITY_FILTERS = [
  ['actor', 'actor'],
  ['accountId', 'account_id'],
  ['entityType', 'entity_type'],
  ['entityId', 'entity_id'],
  ['action', 'action'],
] as const satisfies readonly (readonly [keyof AuditFilter, string])[];

/**
 * The WHERE of an audit listing: one equality per filter given, the time range, and for a page
 * after a cursor `seq < …`. Values are bound, never spliced; the parameters are numbered by
 * `placeholder` in the order of `values`.
 */
export function buildAuditWhere(filter: AuditFilter, beforeSequence: number | undefined, placeholder: Placeholder): { sql: string; values: Array<string | number> } {
  const where = createWhereBuilder(placeholder);
  for (const [field, column] of EQUALITY_FILTERS) where.equal(column, field, filter[field]);
  where.timeRange(filter.from, filter.to);
  if (beforeSequence !== undefined) where.clauses.push(`seq < ${where.bind('beforeSequence', beforeSequence)}`);
  return where.build();
}
