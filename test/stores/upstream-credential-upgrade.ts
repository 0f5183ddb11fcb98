import type { AccountStore } from '@signalbox/accounts';
import { usageCommit } from './describe-usage-ledger-contract';

/** Takes a ledger back to before its upstream credential column; both SQL stores run it. */
export const DROP_UPSTREAM_CREDENTIAL_COLUMN = 'ALTER TABLE usage DROP COLUMN upstream_credential; ';

const before = usageCommit({ requestId: 'req_before_pools' });

/** Writes the row an older build would have: no credential named. */
export async function commitRowBeforeUpstreamCredentials(store: AccountStore): Promise<void> {
  await store.commitUsage([before]);
}

/** After the upgrade, the older row names no credential (the field is absent) and a new row keeps its own. */
export async function expectUpstreamCredentialsAfterUpgrade(store: AccountStore): Promise<void> {
  await store.commitUsage([usageCommit({ requestId: 'req_after_pools', time: before.entry.time + 1, upstreamCredential: 'team-b' })]);
  const { entries } = await store.listUsage({}, { limit: 5 });
  expect(entries.map(entry => [entry.requestId, entry.upstreamCredential])).toEqual([
    ['req_after_pools', 'team-b'],
    ['req_before_pools', undefined],
  ]);
  expect('upstreamCredential' in entries[1]!).toBe(false);
}
