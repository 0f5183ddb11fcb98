import { hostname } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import { createId } from '@signalbox/core';
import { SingleGatewayInUseError } from './single-gateway-in-use-error';

/** The store instances open in this process: a row with this process's id and another owner id is a previous boot's. */
const openInThisProcess = new Set<string>();

type OwnerRow = { id: string; host: string; pid: number };

/** The id prefix of an owner that opened the file as its single gateway (its holds are in its memory). */
const SINGLE_GATEWAY_PREFIX = 'gateway_';

/**
 * Writes the row that says this store instance (this process, this boot) owns the holds it makes,
 * and returns its id. Other processes sharing the file read it to tell a live owner from a dead one;
 * a single gateway's id starts with `gateway_`, so a second one can tell it is not alone.
 */
export function registerHoldOwner(database: DatabaseSync, now: number, singleGateway = false): string {
  const id = createId(singleGateway ? SINGLE_GATEWAY_PREFIX : 'owner_');
  database
    .prepare('INSERT INTO hold_owners (id, host, pid, started_at) VALUES (?, ?, ?, ?)')
    .run(id, hostname(), process.pid, now);
  openInThisProcess.add(id);
  return id;
}

/** Removes the owner's row at a clean close: holds it still has belong to nobody and are released. */
export function unregisterHoldOwner(database: DatabaseSync, id: string): void {
  openInThisProcess.delete(id);
  database.prepare('DELETE FROM hold_owners WHERE id = ?').run(id);
}

/**
 * Deletes the rows of owners known to be gone, which makes their holds ownerless. On this host an
 * owner is gone when its process no longer exists, or when its process id is this process's but the
 * instance is not open here (a previous boot that reused the id, as a container's first process
 * does). An owner on another host cannot be checked: its holds are released by their expiry.
 */
export function forgetDeadOwners(database: DatabaseSync): void {
  const here = hostname();
  const owners = database.prepare('SELECT id, host, pid FROM hold_owners').all() as OwnerRow[];
  const remove = database.prepare('DELETE FROM hold_owners WHERE id = ?');
  for (const owner of owners) {
    if (owner.host === here && !isAlive(owner)) remove.run(owner.id);
  }
}

/**
 * Throws `SingleGatewayInUseError` when another live process on this host has the file open as its single gateway: two of
 * them would each check balances against their own holds only. Run after `forgetDeadOwners`, so a
 * gateway that died (a `kill -9`, a container restarted under the same process id) does not count.
 * An owner on another host cannot be checked and is let be.
 */
export function refuseSecondSingleGateway(database: DatabaseSync, ownId: string): void {
  const here = hostname();
  const owners = database
    .prepare('SELECT id, host, pid FROM hold_owners WHERE id <> ?')
    .all(ownId) as OwnerRow[];
  const other = owners.find(
    owner => owner.id.startsWith(SINGLE_GATEWAY_PREFIX) && owner.host === here && isAlive(owner),
  );
  if (!other) return;
  unregisterHoldOwner(database, ownId);
  throw new SingleGatewayInUseError(other.pid);
}

function isAlive(owner: OwnerRow): boolean {
  if (owner.pid === process.pid) return openInThisProcess.has(owner.id);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
