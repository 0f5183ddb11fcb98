import type { AccountStore, UsageEntry } from '@signalbox/accounts';

/** Every ledger row of the account, newest first, read page by page (`pageSize` rows a page). */
export async function readAllUsageRows(store: AccountStore, accountId: string, pageSize: number): Promise<UsageEntry[]> {
  const rows: UsageEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listUsage({ accountId }, { limit: pageSize, ...(cursor !== undefined && { cursor }) });
    rows.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return rows;
}
