import type { AuditEntry, NewAuditEntry } from '@signalbox/accounts';
import type { ContractContext } from './contract-context';

const T0 = Date.UTC(2020, 0, 1);

/** An entry at `T0 + minutes`, changed by `fields`. */
function entryAt(minutes: number, fields: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return { time: T0 + minutes * 60_000, actor: 'admin-token', entityType: 'key', entityId: `key_${minutes}`, action: 'update', ...fields };
}

/** The audit log: appended entries read back whole, newest first, filtered, paged, and removed only by retention. */
export function describeAuditLog(context: ContractContext): void {
  describe('audit log', () => {
    it('gives each entry an id and reads it back whole, before and after included', async () => {
      const input = entryAt(0, {
        accountId: 'acct_a',
        before: { name: 'old', limits: { tokens: 5 } },
        after: { name: 'new', allowedModels: ['a', 'b'], group: null },
        ip: '127.0.0.1',
        userAgent: 'curl/8',
        requestId: 'req_1',
      });
      const appended = await context.store.appendAudit(input);
      expect(appended).toEqual({ id: expect.stringMatching(/^aud_/), ...input });
      expect((await context.store.listAudit({}, { limit: 10 })).entries).toEqual([appended]);
      const bare = await context.store.appendAudit(entryAt(1));
      expect(bare).toEqual({ id: expect.any(String), ...entryAt(1) });
    });

    it('lists newest first, by each filter, and pages with a cursor that neither skips nor repeats', async () => {
      const appended: AuditEntry[] = [];
      for (let minute = 0; minute < 7; minute++) {
        const fields = { accountId: minute % 2 === 0 ? 'acct_even' : 'acct_odd', actor: minute < 3 ? 'cli' : 'console:alice', action: minute === 5 ? 'create' : 'update' };
        appended.push(await context.store.appendAudit(entryAt(minute, fields)));
      }
      const ids = (entries: AuditEntry[]) => entries.map(entry => entry.id);
      const newest = [...appended].reverse();
      const list = async (filter: Parameters<typeof context.store.listAudit>[0]) => ids((await context.store.listAudit(filter, { limit: 100 })).entries);
      expect(await list({})).toEqual(ids(newest));
      expect(await list({ accountId: 'acct_even' })).toEqual(ids(newest.filter(entry => entry.accountId === 'acct_even')));
      expect(await list({ actor: 'cli' })).toEqual(ids(newest.slice(4)));
      expect(await list({ action: 'create' })).toEqual([appended[5]!.id]);
      expect(await list({ entityType: 'key', entityId: 'key_2' })).toEqual([appended[2]!.id]);
      expect(await list({ entityType: 'account' })).toEqual([]);
      expect(await list({ from: T0 + 2 * 60_000, to: T0 + 4 * 60_000 })).toEqual([appended[3]!.id, appended[2]!.id]);
      const pages: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await context.store.listAudit({}, { limit: 3, ...(cursor !== undefined && { cursor }) });
        pages.push(...ids(page.entries));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(pages).toEqual(ids(newest));
      await expect(context.store.listAudit({}, { limit: 3, cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'INVALID_REQUEST', param: 'cursor' });
    });

    it('removes only entries older than the retention time', async () => {
      const old = await context.store.appendAudit(entryAt(0));
      const kept = await context.store.appendAudit(entryAt(10));
      expect(await context.store.deleteAuditBefore(T0 + 5 * 60_000)).toBe(1);
      const left = (await context.store.listAudit({}, { limit: 10 })).entries;
      expect(left.map(entry => entry.id)).toEqual([kept.id]);
      expect(left.map(entry => entry.id)).not.toContain(old.id);
    });
  });
}
