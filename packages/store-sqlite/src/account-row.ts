import type { SQLOutputValue } from 'node:sqlite';
import type { Account } from '@switchyard/accounts';

/** One `accounts` row as SQLite returns it (STRICT table, so the column types hold). */
export type AccountRow = {
  id: string;
  name: string;
  balance_micros: number;
  reserved_micros: number;
  subscription: Account['subscription'];
  group_name: string | null;
  created_at: number;
};

/** A fresh `Account` from a row; `undefined` passes through so lookups stay one expression. */
export function toAccount(row: Record<string, SQLOutputValue> | undefined): Account | undefined {
  if (!row) return undefined;
  const account = row as AccountRow;
  return {
    id: account.id,
    name: account.name,
    balanceMicros: account.balance_micros,
    reservedMicros: account.reserved_micros,
    subscription: account.subscription,
    ...(account.group_name !== null && { group: account.group_name }),
    createdAt: account.created_at,
  };
}
