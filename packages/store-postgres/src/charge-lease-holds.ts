import { chargeOnSettle, type Settled } from '@signalbox/accounts';
import { lockAccounts } from './account-statements';
import { addBudgetCharge, chargeBudgets, type BudgetCharges } from './budget-statements';
import type { LeaseHold } from './create-balance-leases';
import type { SqlSession } from './sql-session';

/** The lease holds a batch settles, with what the owner's lease rows still hold once locked. */
export type LeaseSettlement = {
  ownerId: string;
  /** By reservation id; each leaves the map as it is charged, so a hold is charged once. */
  holds: Map<string, LeaseHold>;
  /** Filled by `lockLeases`: each account's lease row, as much as is left of it while the batch charges. */
  remaining: Map<string, number>;
  /** What the batch charges each lease. */
  charged: Map<string, number>;
};

/**
 * Locks the owner's lease rows of the accounts (their account rows already locked: the order every
 * hold change follows; the lease rows in account order, as the renewal takes them) and notes what
 * each holds. A lease hold whose lease row is gone (ended by a
 * sweep that took this instance for dead) is then charged nothing, as a released hold is.
 */
export async function lockLeases(sql: SqlSession, leases: LeaseSettlement): Promise<void> {
  const accountIds = [...new Set([...leases.holds.values()].map(hold => hold.accountId))];
  const rows = await sql.rows('SELECT account_id, amount_micros FROM balance_leases WHERE owner_id = $1 AND account_id = ANY($2::text[]) ORDER BY account_id FOR UPDATE', [
    leases.ownerId,
    accountIds,
  ]);
  for (const row of rows) leases.remaining.set(String(row['account_id']), Number(row['amount_micros']));
}

/**
 * The charge of one lease hold: the cost, capped at the hold, at what the lease row has left and at
 * the balance; it leaves the lease (and so the account's `reserved_micros`) and the balance together.
 * `undefined` when the lease row is gone.
 */
export function chargeLeaseHold(leases: LeaseSettlement, hold: LeaseHold, costMicros: number, balanceMicros: number): Settled | undefined {
  const remaining = leases.remaining.get(hold.accountId);
  if (remaining === undefined) return undefined;
  const settled = chargeOnSettle(costMicros, Math.min(hold.amountMicros, remaining), balanceMicros);
  leases.remaining.set(hold.accountId, remaining - settled.chargedMicros);
  leases.charged.set(hold.accountId, (leases.charged.get(hold.accountId) ?? 0) + settled.chargedMicros);
  return settled;
}

/** Takes the batch's charges off the owner's lease rows, in one statement. */
export async function applyLeaseCharges(sql: SqlSession, leases: LeaseSettlement): Promise<void> {
  if (leases.charged.size === 0) return;
  const entries = [...leases.charged];
  await sql.rows(
    `UPDATE balance_leases SET amount_micros = amount_micros - change.charged
     FROM UNNEST($2::text[], $3::bigint[]) AS change (id, charged)
     WHERE owner_id = $1 AND account_id = change.id`,
    [leases.ownerId, entries.map(([accountId]) => accountId), entries.map(([, charged]) => charged)],
  );
}

/** `settle` of one lease hold, in the caller's transaction: the account locked, then its lease, then the charge. */
export async function settleLeaseHold(sql: SqlSession, ownerId: string, hold: LeaseHold, costMicros: number, at: number): Promise<Settled | undefined> {
  const [account] = await lockAccounts(sql, [hold.accountId]);
  const leases: LeaseSettlement = { ownerId, holds: new Map([['', hold]]), remaining: new Map(), charged: new Map() };
  await lockLeases(sql, leases);
  const settled = chargeLeaseHold(leases, hold, costMicros, Number(account?.['balance_micros'] ?? 0));
  if (!settled) return undefined;
  await applyLeaseCharges(sql, leases);
  await sql.rows('UPDATE accounts SET reserved_micros = reserved_micros - $1, balance_micros = balance_micros - $1 WHERE id = $2', [
    settled.chargedMicros,
    hold.accountId,
  ]);
  if (account?.['budgeted'] === true) {
    const charges: BudgetCharges = new Map();
    addBudgetCharge(charges, hold.accountId, hold.keyId, settled.chargedMicros);
    await chargeBudgets(sql, charges, at);
  }
  return settled;
}
