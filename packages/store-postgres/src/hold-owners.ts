import { hostname } from 'node:os';
import { createId } from '@signalbox/core';
import type { SqlSession } from './sql-session';

/**
 * Writes the row that says this store instance owns the holds it makes, with its first heartbeat,
 * and returns its id. Host and process id are there for people reading the table; liveness is the
 * heartbeat alone, since an instance on another machine cannot be checked any other way.
 */
export async function registerHoldOwner(sql: SqlSession, now: number): Promise<string> {
  const id = createId('owner_');
  await beatHoldOwner(sql, id, now);
  return id;
}

/**
 * Refreshes the owner's heartbeat and says whether its row had to be written anew. An instance
 * silent past the bound (its row then deleted by another instance, its holds released) writes its
 * row back, so the holds it makes from then on are owned again; `true` tells it that it was taken
 * for dead.
 */
export async function beatHoldOwner(sql: SqlSession, id: string, now: number): Promise<boolean> {
  const row = await sql.row(
    `INSERT INTO hold_owners (id, host, pid, started_at, updated_at) VALUES ($1, $2, $3, $4, $4)
     ON CONFLICT (id) DO UPDATE SET updated_at = GREATEST(hold_owners.updated_at, EXCLUDED.updated_at)
     RETURNING (xmax = 0) AS inserted`,
    [id, hostname(), process.pid, now],
  );
  return row?.['inserted'] === true;
}

/** Removes the owner's row at a clean close: holds it still has belong to nobody and are released. */
export async function unregisterHoldOwner(sql: SqlSession, id: string): Promise<void> {
  await sql.rows('DELETE FROM hold_owners WHERE id = $1', [id]);
}
