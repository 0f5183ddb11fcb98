import type { Reservation } from '@signalbox/accounts';
import { endOwnLeases, renewLeases, shrinkLease, takeLease } from './balance-lease-statements';
import type { StoreContext } from './store-context';

/** How an instance leases slices of balances (see the package README, "Balance leases"). */
export type BalanceLeaseOptions = {
  /** The largest slice of one account's balance an instance leases at a time, in micro-units. */
  sliceMicros: number;
  /** A lease with no hold for this long is given back. Default 10 000 ms. */
  idleMs?: number;
};

/** A hold served from a lease: known to this instance only, until its charge is committed. */
export type LeaseHold = { accountId: string; amountMicros: number; expiresAt: number; keyId?: string | undefined };

/** This instance's lease of one account, as far as this instance knows it. */
type Lease = {
  amountMicros: number;
  heldMicros: number;
  usedAt: number;
  /** The take or give-back in flight: holds arriving meanwhile wait for it, then look again. */
  taking?: Promise<void> | undefined;
  /** A take was refused since the last sweep. */
  refused: boolean;
  /** Serves no more holds (a budget of the account changed, or announcements were lost): ended once its holds are settled. */
  suspended?: boolean;
};

export type BalanceLeases = {
  /** Holds `reservation` from the account's lease, taking or growing it when needed; `false` when a lease cannot serve it. */
  hold(reservation: Reservation): Promise<boolean>;
  /** Removes and returns the lease hold of that id (the first settlement alone gets it), or `undefined`. */
  takeHold(reservationId: string): LeaseHold | undefined;
  /** Puts back lease holds taken for a commit that failed (rolled back): they are still to be settled. */
  restoreHolds(taken: ReadonlyMap<string, LeaseHold>): void;
  /** After a commit: the charge left the lease, the hold's amount is free again; `leaseGone` when the lease row was not there. */
  settled(hold: LeaseHold, chargedMicros: number, leaseGone: boolean): void;
  /** Gives back what the account's lease holds beyond its holds; says whether anything was given back. */
  giveBackUnused(accountId: string): Promise<boolean>;
  /** Renews the leases, gives back idle ones and drops expired lease holds: run by the store's sweep. */
  maintain(now: number): Promise<void>;
  /** Gives every lease back (a clean close). */
  endAll(): Promise<void>;
  /** A budget of the account changed: its lease serves no more holds, and what it holds unused goes back. */
  suspend(accountId: string): Promise<void>;
  /**
   * Whether budget changes made anywhere are announced to this instance now. Leases serve holds only
   * while they are; on a loss every lease is suspended, as it may miss a budget's announcement.
   */
  setAnnounced(announced: boolean): void;
};

export const DEFAULT_LEASE_IDLE_MS = 10_000;

/**
 * Balance leases of one store instance. The money of a lease is counted in the account's
 * `reserved_micros` from the moment it is taken, so every other instance's holds and leases see it
 * as held; the holds served from it live here, and a charge leaves lease and balance together in
 * the ledger batch's transaction (which caps it at what the lease row still holds). `lifetimeMs`
 * is how long a lease row lives unrenewed: what a crashed instance leased comes back after it.
 */
export function createBalanceLeases(
  context: StoreContext,
  options: BalanceLeaseOptions & { lifetimeMs: number },
): BalanceLeases {
  const { ownerId, now } = context;
  const idleMs = options.idleMs ?? DEFAULT_LEASE_IDLE_MS;
  const leases = new Map<string, Lease>();
  const holds = new Map<string, LeaseHold>();
  let announced = false;

  const serve = (lease: Lease, reservation: Reservation) => {
    if (lease.suspended || lease.amountMicros - lease.heldMicros < reservation.amountMicros) return false;
    lease.heldMicros += reservation.amountMicros;
    lease.usedAt = now();
    holds.set(reservation.id, {
      accountId: reservation.accountId, amountMicros: reservation.amountMicros, expiresAt: reservation.expiresAt, keyId: reservation.keyId,
    });
    return true;
  };
  const grow = async (accountId: string, lease: Lease, amountMicros: number) => {
    const taken = await takeLease(context.sql, {
      accountId, ownerId, sliceMicros: options.sliceMicros, minimumMicros: amountMicros,
      lackingMicros: Math.max(1, amountMicros - (lease.amountMicros - lease.heldMicros)),
      expiresAt: now() + options.lifetimeMs,
    });
    lease.amountMicros += taken;
    return taken > 0;
  };
  const giveBackUnused = async (accountId: string) => {
    const lease = leases.get(accountId);
    const unused = lease ? lease.amountMicros - lease.heldMicros : 0;
    if (!lease || unused <= 0 || lease.taking) return false;
    lease.amountMicros -= unused;
    const given = await context.transaction(sql => shrinkLease(sql, { accountId, ownerId, amountMicros: unused }));
    if (!given) lease.amountMicros = lease.heldMicros;
    return given;
  };

  return {
    async hold(reservation) {
      if (!announced || reservation.amountMicros > options.sliceMicros || reservation.amountMicros <= 0) return false;
      const accountId = reservation.accountId;
      for (let asked = false; ; asked = true) {
        let lease = leases.get(accountId);
        if (!lease) leases.set(accountId, (lease = { amountMicros: 0, heldMicros: 0, usedAt: now(), refused: false }));
        if (serve(lease, reservation)) return true;
        // A take refused since the last sweep (money short, or budgets), or a suspended lease: per-request holds.
        if (lease.refused || lease.suspended || asked) return false;
        if (!lease.taking) {
          const growing = lease;
          growing.taking = grow(accountId, growing, reservation.amountMicros)
            .catch(() => false)
            .then(grown => {
              growing.taking = undefined;
              growing.refused = !grown;
            });
        }
        await lease.taking;
      }
    },
    takeHold(reservationId) {
      const hold = holds.get(reservationId);
      if (hold) holds.delete(reservationId);
      return hold;
    },
    restoreHolds(taken) {
      for (const [id, hold] of taken) holds.set(id, hold);
    },
    settled(hold, chargedMicros, leaseGone) {
      const lease = leases.get(hold.accountId);
      if (!lease) return;
      lease.heldMicros -= hold.amountMicros;
      lease.amountMicros = leaseGone ? 0 : lease.amountMicros - chargedMicros;
    },
    giveBackUnused,
    async maintain(at) {
      for (const [id, hold] of holds) {
        if (hold.expiresAt > at) continue;
        // Released without charge, as an expired hold is: a later settlement of it charges nothing.
        holds.delete(id);
        const lease = leases.get(hold.accountId);
        if (lease) lease.heldMicros -= hold.amountMicros;
      }
      const idle: string[] = [];
      for (const [accountId, lease] of leases) {
        lease.refused = false;
        if (lease.heldMicros === 0 && !lease.taking && (lease.suspended || now() - lease.usedAt >= idleMs)) idle.push(accountId);
      }
      const { maintenance } = context;
      if (idle.length > 0) {
        const ending = maintenance.transaction(sql => endOwnLeases(sql, ownerId, idle));
        for (const accountId of idle) {
          const lease = leases.get(accountId)!;
          const amount = lease.amountMicros;
          lease.amountMicros = 0;
          lease.taking = ending.then(
            () => void (leases.get(accountId) === lease && leases.delete(accountId)),
            () => void (lease.amountMicros = amount),
          ).finally(() => (lease.taking = undefined));
        }
        await ending;
      }
      await renewLeases(maintenance.sql, ownerId, now() + options.lifetimeMs);
    },
    async suspend(accountId) {
      const lease = leases.get(accountId);
      if (!lease) return;
      lease.suspended = true;
      await lease.taking;
      await giveBackUnused(accountId);
    },
    setAnnounced(isAnnounced) {
      announced = isAnnounced;
      if (!isAnnounced) for (const lease of leases.values()) lease.suspended = true;
    },
    async endAll() {
      leases.clear();
      holds.clear();
      await context.maintenance.transaction(sql => endOwnLeases(sql, ownerId));
    },
  };
}
