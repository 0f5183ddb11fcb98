import { chargeOnSettle, type Settled, type UsageCommit } from '@signalbox/accounts';
import { USAGE_COLUMNS, usageRowValues } from '@signalbox/accounts/sql';
import { lockAccounts } from './account-statements';
import { addBudgetCharge, chargeBudgets, type BudgetCharges } from './budget-statements';
import { applyLeaseCharges, chargeLeaseHold, lockLeases, type LeaseSettlement } from './charge-lease-holds';
import type { SqlSession } from './sql-session';

/** Rows per INSERT: one parameter per column (33), well under PostgreSQL's 65 535 per statement. */
const ROWS_PER_INSERT = 1000;

/** What one batch does to one account: the holds it releases and what it charges. */
type AccountChange = { releasedMicros: number; chargedMicros: number };

const UPDATE_ACCOUNTS = `
  UPDATE accounts SET reserved_micros = reserved_micros - change.released, balance_micros = balance_micros - change.charged
  FROM UNNEST($1::text[], $2::bigint[], $3::bigint[]) AS change (id, released, charged)
  WHERE accounts.id = change.id`;

/**
 * Settles a batch of finished requests and writes their ledger rows, inside the caller's
 * transaction, in a fixed number of statements whatever the batch's size: the accounts locked (in
 * the one order every hold change uses), the request ids already in the ledger found, the batch's
 * holds deleted (`DELETE … RETURNING`: a hold another transaction settled or released is simply
 * not returned), the charges decided here, then one UPDATE of the accounts and multi-row INSERTs of
 * the rows. Each commit is charged exactly as `settleHold` would in the batch's order: the cost,
 * capped at its stored hold and at what the balance has left after the commits before it; a
 * request id already written (before or earlier in the batch) gets no second row and its hold is
 * released without charge. The charges of accounts with budgets count against them (`chargeBudgets`,
 * one more statement) in the period holding `at`.
 */
export async function commitUsageBatch(
  session: SqlSession,
  commits: readonly UsageCommit[],
  at: number,
  leases?: LeaseSettlement,
): Promise<Settled[]> {
  const balances = new Map<string, number>();
  const budgeted = new Set<string>();
  const lock = async (accountIds: readonly string[]) => {
    for (const row of await lockAccounts(session, accountIds)) {
      balances.set(String(row['id']), Number(row['balance_micros']));
      if (row['budgeted'] === true) budgeted.add(String(row['id']));
    }
  };
  await lock(commits.flatMap(commit => (commit.reservation ? [commit.reservation.accountId] : [])));
  const written = await findWrittenRequestIds(session, commits);
  const holds = await takeHolds(session, commits, leases);
  // A hold stored under another account than its caller's copy says: that account is locked too.
  await lock([...holds.values()].map(hold => hold.accountId).filter(accountId => !balances.has(accountId)));
  // Holds served from this instance's leases: their lease rows next (accounts first, as always).
  if (leases && leases.holds.size > 0) await lockLeases(session, leases);

  const changes = new Map<string, AccountChange>();
  const budgetCharges: BudgetCharges = new Map();
  const rows: Array<Array<string | number | null>> = [];
  const results = commits.map(({ entry, reservation, costMicros }): Settled => {
    const cost = Math.max(0, Math.round(costMicros));
    const leaseHold = reservation && leases?.holds.get(reservation.id);
    const hold = reservation && (leaseHold ?? holds.get(reservation.id));
    if (reservation) {
      holds.delete(reservation.id);
      leases?.holds.delete(reservation.id);
    }
    const duplicate = written.has(entry.requestId);
    written.add(entry.requestId);
    let settled: Settled = { chargedMicros: 0, uncoveredMicros: cost };
    const balance = hold ? (balances.get(hold.accountId) ?? 0) : 0;
    const charge = leaseHold
      ? chargeLeaseHold(leases!, leaseHold, duplicate ? 0 : cost, balance)
      : hold && chargeOnSettle(duplicate ? 0 : cost, hold.amountMicros, balance);
    if (hold && charge) {
      // A lease hold gives back to the lease what it did not charge: only the charge leaves `reserved_micros`.
      const released = leaseHold ? charge.chargedMicros : hold.amountMicros;
      if (!duplicate) settled = charge;
      balances.set(hold.accountId, balance - charge.chargedMicros);
      const change = changes.get(hold.accountId) ?? { releasedMicros: 0, chargedMicros: 0 };
      change.releasedMicros += released;
      change.chargedMicros += charge.chargedMicros;
      changes.set(hold.accountId, change);
      if (budgeted.has(hold.accountId)) addBudgetCharge(budgetCharges, hold.accountId, hold.keyId, charge.chargedMicros);
    }
    if (!duplicate) rows.push(usageRowValues(entry, settled));
    return settled;
  });
  await applyAccountChanges(session, changes);
  if (leases) await applyLeaseCharges(session, leases);
  await chargeBudgets(session, budgetCharges, at);
  await insertUsageRows(session, rows);
  return results;
}

async function findWrittenRequestIds(session: SqlSession, commits: readonly UsageCommit[]): Promise<Set<string>> {
  const rows = await session.rows('SELECT request_id FROM usage WHERE request_id = ANY($1::text[])', [
    commits.map(commit => commit.entry.requestId),
  ]);
  return new Set(rows.map(row => String(row['request_id'])));
}

/**
 * Deletes the batch's holds that still exist and returns them by id: from here on they are this
 * transaction's alone. A hold served from a lease has no row: with only those, nothing is asked.
 */
async function takeHolds(
  session: SqlSession,
  commits: readonly UsageCommit[],
  leases: LeaseSettlement | undefined,
): Promise<Map<string, { accountId: string; amountMicros: number; keyId: string | undefined }>> {
  const ids = commits.flatMap(commit => (commit.reservation && !leases?.holds.has(commit.reservation.id) ? [commit.reservation.id] : []));
  if (ids.length === 0) return new Map();
  const rows = await session.rows('DELETE FROM reservations WHERE id = ANY($1::text[]) RETURNING id, account_id, amount_micros, key_id', [ids]);
  return new Map(
    rows.map(row => [
      String(row['id']),
      { accountId: String(row['account_id']), amountMicros: Number(row['amount_micros']), keyId: (row['key_id'] as string | null) ?? undefined },
    ]),
  );
}

async function applyAccountChanges(session: SqlSession, changes: ReadonlyMap<string, AccountChange>): Promise<void> {
  if (changes.size === 0) return;
  const entries = [...changes];
  await session.rows(UPDATE_ACCOUNTS, [
    entries.map(([accountId]) => accountId),
    entries.map(([, change]) => change.releasedMicros),
    entries.map(([, change]) => change.chargedMicros),
  ]);
}

async function insertUsageRows(session: SqlSession, rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_INSERT);
    const tuples = chunk.map(
      (_row, index) => `(${USAGE_COLUMNS.map((_column, column) => `$${index * USAGE_COLUMNS.length + column + 1}`).join(', ')})`,
    );
    await session.rows(`INSERT INTO usage (${USAGE_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, chunk.flat());
  }
}
