/**
 * One change, as the audit log keeps it: who made it (`actor`), to what (`entityType`, `entityId`,
 * and the account it belongs to), how (`action`), the entity before and after with every secret
 * masked, when (unix milliseconds) and from where (client address, user agent, request id).
 */
export type AuditEntry = {
  id: string;
  time: number;
  /** The identity's `actor`: `admin-token`, `console:<token name>`, `sso:<issuer host>:<subject>`, `cli`, `config-file`. */
  actor: string;
  /** The account the changed entity belongs to: what an account's owner may read. Absent for the gateway's own (upstreams, config). */
  accountId?: string;
  /** What was changed: `account`, `key`, `console-token`, `upstream-credential`, or another part's entity. */
  entityType: string;
  entityId: string;
  /** `create`, `update`, `adjust-balance`, `enable`, … */
  action: string;
  /** The entity before and after the change, secrets masked (`maskSecrets`); absent where there is none (before a create). */
  before?: unknown;
  after?: unknown;
  ip?: string;
  userAgent?: string;
  requestId?: string;
};

/** An entry to append: the store gives it its id and its place in the log. */
export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** Which entries a listing returns: each member given narrows it (`from` inclusive, `to` exclusive). */
export type AuditFilter = {
  actor?: string;
  accountId?: string;
  entityType?: string;
  entityId?: string;
  action?: string;
  from?: number;
  to?: number;
};

export type AuditPage = { entries: AuditEntry[]; nextCursor?: string };

/**
 * The append-only record of every change made through the console: entries are only ever added,
 * and removed only by retention (`deleteAuditBefore`), never changed. Every `AccountStore` is one.
 */
export interface AuditLog {
  /** Appends an entry and returns it with its id. */
  appendAudit(entry: NewAuditEntry): Promise<AuditEntry>;
  /** A page of entries matching `filter`, newest first (in the order they were appended). */
  listAudit(filter: AuditFilter, page: { limit: number; cursor?: string }): Promise<AuditPage>;
  /** Removes entries whose `time` is before `before` (retention); returns how many. */
  deleteAuditBefore(before: number): Promise<number>;
}
