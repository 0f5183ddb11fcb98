import { createId } from '@signalbox/core';
import { decodeSequenceCursor, encodeSequenceCursor } from '../usage/usage-cursor';
import type { AuditEntry, AuditFilter, AuditLog } from './audit-log';

/** Whether an entry matches every member the filter gives: the reference the SQL stores match. */
export function matchesAuditFilter(entry: AuditEntry, filter: AuditFilter): boolean {
  const equal = (['actor', 'accountId', 'entityType', 'entityId', 'action'] as const).every(
    field => filter[field] === undefined || entry[field] === filter[field],
  );
  return equal && (filter.from === undefined || entry.time >= filter.from) && (filter.to === undefined || entry.time < filter.to);
}

/** The audit log in process memory, for `createMemoryAccountStore`: entries in append order, copies out. */
export function createMemoryAuditLog(): AuditLog {
  const entries: { sequence: number; entry: AuditEntry }[] = [];
  let sequence = 0;
  return {
    async appendAudit(input) {
      const entry = structuredClone({ id: createId('aud_'), ...input });
      entries.push({ sequence: ++sequence, entry });
      return structuredClone(entry);
    },
    async listAudit(filter, page) {
      const before = page.cursor === undefined ? Number.POSITIVE_INFINITY : decodeSequenceCursor(page.cursor);
      const limit = Math.max(1, Math.floor(page.limit));
      const newer = entries.filter(item => item.sequence < before && matchesAuditFilter(item.entry, filter)).reverse();
      const pageEntries = newer.slice(0, limit);
      const last = pageEntries.at(-1);
      return {
        entries: pageEntries.map(item => structuredClone(item.entry)),
        ...(newer.length > limit && last && { nextCursor: encodeSequenceCursor(last.sequence) }),
      };
    },
    async deleteAuditBefore(before) {
      const kept = entries.filter(item => item.entry.time >= before);
      const removed = entries.length - kept.length;
      entries.splice(0, entries.length, ...kept);
      return removed;
    },
  };
}
