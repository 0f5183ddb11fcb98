import { createId } from '@signalbox/core';
import { DEFAULT_HOLD_LIFETIME_MS, type AccountStore, type Reservation } from '@signalbox/accounts';
import { toHoldTotals } from '@signalbox/accounts/sql';
import { budgetsAllow } from './budget-statements';
import { beatHoldOwner } from './hold-owners';
import { releaseAbandonedHolds } from './release-abandoned-holds';
import { settleLeaseHold } from './charge-lease-holds';
import { settleHold } from './settle-hold';
import type { StoreContext } from './store-context';

type ReservationMethods = Pick<AccountStore, 'reserve' | 'settle' | 'releaseExpiredHolds' | 'holdTotals'>;

/**
 * The hold and its row in one statement (one round trip, atomic on its own): the conditional UPDATE
 * locks the account row, and an UPDATE that waited for that lock re-evaluates its WHERE against the
 * row as the other transaction left it, so no interleaving of instances can hold more than the
 * available balance; the `reservations` row (with its expiry and owner) is inserted only when the
 * UPDATE held, and commits with it.
 *
 * Its commit does not wait for the WAL to reach the disk (`synchronous_commit` off for this
 * statement's transaction only: https://www.postgresql.org/docs/current/wal-async-commit.html),
 * which takes the disk flush off every request's path. A crash of the database can lose only the
 * last holds made, never half of one, and never a charge: the batch that settles a hold commits
 * durably, which flushes the WAL up to and including the hold. A hold so lost frees its money at
 * once, and its request is then settled as one whose hold was released.
 */
const RESERVE = `
  WITH settings AS (
    SELECT set_config('synchronous_commit', 'off', true)
  ), held AS (
    UPDATE accounts SET reserved_micros = reserved_micros + $1
    WHERE id = $2 AND NOT budgeted AND balance_micros - reserved_micros >= $1
    RETURNING id
  ), inserted AS (
    INSERT INTO reservations (id, account_id, amount_micros, created_at, expires_at, owner_id, key_id)
    SELECT $3, held.id, $1, $4, $5, $6, $7 FROM held, settings
    RETURNING id
  )
  SELECT EXISTS (SELECT 1 FROM inserted) AS held, EXISTS (SELECT 1 FROM accounts WHERE id = $2 AND budgeted) AS budgeted`;

/**
 * The hold of an account with budgets, in one transaction: the account row locked first (the order
 * every hold change follows), so every other hold, charge and release of the account waits, and
 * what is read next is the latest committed: the balance, then each budget's period charges and
 * holds (`budgetsAllow`); then the hold and its row.
 */
const HOLD_BUDGETED = `
  WITH held AS (
    UPDATE accounts SET reserved_micros = reserved_micros + $1 WHERE id = $2 RETURNING id
  )
  INSERT INTO reservations (id, account_id, amount_micros, created_at, expires_at, owner_id, key_id)
  SELECT $3, held.id, $1, $4, $5, $6, $7 FROM held`;

/** Every instance's holds in one aggregate: a scan of the holds in flight, which are few. */
const TOTAL_HOLDS = `
  SELECT count(*)::bigint AS count, coalesce(sum(amount_micros), 0)::bigint AS amount_micros,
    min(expires_at) AS earliest_expires_at
  FROM reservations`;

/**
 * Holds and charges. `reserve` is one statement (`RESERVE`) for an account without budgets, and
 * the transaction of `HOLD_BUDGETED` for one with them. `settle` deletes the row
 * first and acts only if it was still there, so settling twice does nothing; it charges at most
 * the stored hold and never more than the balance has.
 */
export function createReservationMethods(
  context: StoreContext,
  options: { ownerTimeoutMs: number; onOwnerLost(error: Error): void },
): ReservationMethods {
  const { transaction, maintenance, ownerId, now, leases } = context;
  return {
    async reserve(accountId, amountMicros, hold = {}) {
      const amount = Math.max(0, Math.ceil(amountMicros));
      const createdAt = now();
      const expiresAt = hold.expiresAt ?? createdAt + DEFAULT_HOLD_LIFETIME_MS;
      const reservation: Reservation = {
        id: createId('hold_'), accountId, amountMicros: amount, expiresAt, ownerId,
        ...(hold.keyId !== undefined && { keyId: hold.keyId }),
      };
      if (leases && (await leases.hold(reservation))) return reservation;
      const values = [amount, accountId, reservation.id, createdAt, expiresAt, ownerId, hold.keyId ?? null];
      let answer = await context.sql.row(RESERVE, values);
      // Money this instance leased but does not use may be what is missing: given back, then asked again.
      if (answer?.['held'] !== true && answer?.['budgeted'] !== true && leases && (await leases.giveBackUnused(accountId))) {
        answer = await context.sql.row(RESERVE, values);
      }
      if (answer?.['held'] === true) return reservation;
      if (answer?.['budgeted'] !== true) return undefined;
      const held = await transaction(async sql => {
        await sql.rows("SELECT set_config('synchronous_commit', 'off', true)");
        const account = await sql.row('SELECT balance_micros, reserved_micros FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
        if (!account || Number(account['balance_micros']) - Number(account['reserved_micros']) < amount) return false;
        if (!(await budgetsAllow(sql, accountId, hold.keyId, amount, createdAt))) return false;
        return (await sql.count(HOLD_BUDGETED, values)) > 0;
      });
      return held ? reservation : undefined;
    },
    async settle(reservation, costMicros) {
      const leased = leases?.takeHold(reservation.id);
      if (!leased) return transaction(sql => settleHold(sql, reservation, costMicros, now()));
      const settled = await transaction(sql => settleLeaseHold(sql, ownerId, leased, costMicros, now())).catch((error: unknown) => {
        leases!.restoreHolds(new Map([[reservation.id, leased]]));
        throw error;
      });
      leases!.settled(leased, settled?.chargedMicros ?? 0, settled === undefined);
      return settled;
    },
    async releaseExpiredHolds(at) {
      // The heartbeat first: every sweep proves this instance alive before it judges the others.
      if (await beatHoldOwner(maintenance.sql, ownerId, now())) options.onOwnerLost(ownerLostError(options.ownerTimeoutMs));
      await leases?.maintain(at);
      return maintenance.transaction(sql =>
        releaseAbandonedHolds(sql, { now: at, selfId: ownerId, ownerTimeoutMs: options.ownerTimeoutMs }),
      );
    },
    async holdTotals() {
      return toHoldTotals((await context.sql.row(TOTAL_HOLDS))!);
    },
  };
}

/**
 * What an instance reports when it finds its owner row gone: another instance heard no heartbeat
 * from it for the bound and released its holds, so requests it had in flight were settled against
 * holds that no longer existed and were not charged.
 */
function ownerLostError(ownerTimeoutMs: number): Error {
  return new Error(
    `This instance was taken for dead (no heartbeat for ${ownerTimeoutMs} ms) and its balance holds were released; requests it had in flight then were not charged. Raise the hold owner timeout or find what stalls the process.`,
  );
}
