import type { KeyLimits } from '../keys/key-limits';
import type { Account } from '../store/account-store';

/** One `accounts` row as a SQL store reads it (SQLite, or PostgreSQL with BIGINT read as numbers). */
export type AccountRow = {
  id: string;
  name: string;
  balance_micros: number;
  reserved_micros: number;
  subscription: Account['subscription'];
  group_name: string | null;
  /** JSON text of `KeyLimits`, or NULL for none. */
  key_limit_ceiling: string | null;
  created_at: number;
};

/** A fresh `Account` from a row; `undefined` passes through so lookups stay one expression. */
export function toAccount(row: Record<string, unknown> | undefined): Account | undefined {
  if (!row) return undefined;
  const account = row as AccountRow;
  return {
    id: account.id,
    name: account.name,
    balanceMicros: account.balance_micros,
    reservedMicros: account.reserved_micros,
    subscription: account.subscription,
    ...(account.group_name !== null && { group: account.group_name }),
    ...(account.key_limit_ceiling !== null && { keyLimitCeiling: JSON.parse(account.key_limit_ceiling) as KeyLimits }),
    createdAt: account.created_at,
  };
}

/** An account's `key_limit_ceiling` column: JSON text, or NULL when it has none. */
export function keyLimitCeilingColumn(account: { keyLimitCeiling?: KeyLimits }): string | null {
  return account.keyLimitCeiling === undefined ? null : JSON.stringify(account.keyLimitCeiling);
}
