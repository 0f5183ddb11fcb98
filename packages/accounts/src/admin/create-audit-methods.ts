import { boundClientText } from '@signalbox/core';
import type { AuditEntry, AuditFilter } from '../audit/audit-log';
import { maskSecrets } from '../audit/mask-secrets';
import type { AccountStore } from '../store/account-store';
import type { ConsoleIdentity } from './console-identity';
import { parseInput, requireOwner, scopedAccountId } from './console-scope';
import { withoutUndefined } from './create-key-methods';
import { exportCsvPages, formatCsvRow } from './format-usage-csv';
import { MAX_USAGE_PAGE, auditPageQuerySchema } from './usage-query-schemas';

/** The most characters of a user agent an entry keeps: it is client text. */
const MAX_USER_AGENT_CHARS = 256;

/** What a change was made to: its type and id, and the account it belongs to (absent for the gateway's own). */
export type AuditedEntity = { type: string; id: string; accountId?: string };

/** Records one change `identity` made to `entity` (`before` undefined for a create): the audit log's one seam. */
export type RecordAudit = (identity: ConsoleIdentity, entity: AuditedEntity, action: string, before: unknown, after: unknown) => Promise<void>;

/** The columns of an audit CSV export, in order: the API's entry fields, before and after as JSON. */
export const AUDIT_CSV_COLUMNS = ['time', 'actor', 'accountId', 'entityType', 'entityId', 'action', 'before', 'after', 'ip', 'userAgent', 'requestId', 'id'] as const;

export type AuditMethodsOptions = { store: AccountStore; now: () => number };

/**
 * The audit log as the console writes and reads it. `recordAudit` is the one way a change is
 * recorded (the service's own changes, and any other part's: configuration versions, budgets): who
 * from the identity's `actor`, where from its `origin`, before and after with secrets masked. The
 * admin reads every entry; an account's owner its account's; a viewer none (403 `CONSOLE_ROLE_FORBIDDEN`).
 */
export function createAuditMethods(options: AuditMethodsOptions) {
  const { store, now } = options;
  const scoped = (identity: ConsoleIdentity, query: unknown) => {
    requireOwner(identity, 'read the audit log');
    const { limit, cursor, ...filters } = parseInput(auditPageQuerySchema, query);
    const accountId = scopedAccountId(identity, filters.accountId);
    const filter = accountId === null ? undefined : withoutUndefined<AuditFilter>({ ...filters, accountId });
    return { filter, limit, cursor };
  };
  return {
    /** Appends one entry for a change `identity` made to `entity`: `before` absent for a create. */
    async recordAudit(identity: ConsoleIdentity, entity: AuditedEntity, action: string, before: unknown, after: unknown): Promise<void> {
      const origin = identity.origin ?? {};
      await store.appendAudit(
        withoutUndefined<Omit<AuditEntry, 'id'>>({
          time: now(),
          actor: identity.actor,
          accountId: entity.accountId,
          entityType: entity.type,
          entityId: entity.id,
          action,
          before: before === undefined ? undefined : maskSecrets(before),
          after: after === undefined ? undefined : maskSecrets(after),
          ip: origin.ip,
          userAgent: origin.userAgent === undefined ? undefined : boundClientText(origin.userAgent, MAX_USER_AGENT_CHARS),
          requestId: origin.requestId,
        }),
      );
    },

    /**
     * `GET /admin/audit`: one page of entries, newest first. Query: `actor`, `accountId`,
     * `entityType`, `entityId`, `action`, `from`, `to` (unix ms or ISO 8601), `limit` (1–1000,
     * default 50), `cursor` (a previous page's `nextCursor`).
     */
    async listAudit(identity: ConsoleIdentity, query: unknown) {
      const { filter, limit, cursor } = scoped(identity, query);
      if (!filter) return { data: [], nextCursor: null };
      const page = await store.listAudit(filter, { limit, ...(cursor !== undefined && { cursor }) });
      return { data: page.entries.map(presentAuditEntry), nextCursor: page.nextCursor ?? null };
    },

    /** The same entries as CSV, read page by page as the consumer pulls; the query is checked before this resolves. */
    async exportAuditCsv(identity: ConsoleIdentity, query: unknown): Promise<AsyncIterable<string>> {
      const withPageSize = query !== null && typeof query === 'object' ? { limit: MAX_USAGE_PAGE, ...query } : query;
      const { filter, limit, cursor } = scoped(identity, withPageSize);
      return exportCsvPages(AUDIT_CSV_COLUMNS, filter && (async next => {
        const page = await store.listAudit(filter, { limit, ...(next !== undefined && { cursor: next }) });
        return { lines: page.entries.map(entry => formatCsvRow(AUDIT_CSV_COLUMNS, toCsvCells(presentAuditEntry(entry)))), nextCursor: page.nextCursor };
      }), cursor);
    },
  };
}

/** An entry as the admin API shows it: time in ISO 8601, absent members `null`. */
export function presentAuditEntry(entry: AuditEntry) {
  return {
    id: entry.id,
    time: new Date(entry.time).toISOString(),
    actor: entry.actor,
    accountId: entry.accountId ?? null,
    entityType: entry.entityType,
    entityId: entry.entityId,
    action: entry.action,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.ip ?? null,
    userAgent: entry.userAgent ?? null,
    requestId: entry.requestId ?? null,
  };
}

function toCsvCells(entry: ReturnType<typeof presentAuditEntry>) {
  return { ...entry, before: entry.before === null ? null : JSON.stringify(entry.before), after: entry.after === null ? null : JSON.stringify(entry.after) };
}
