import type { BalanceEvent } from '../usage/usage-ledger';

/** The columns of a `balance_events` row a page reads; `seq` orders them and makes the cursor. */
export const BALANCE_EVENT_COLUMNS = 'seq, id, account_id, time, kind, delta_micros, balance_after_micros';

/** A fresh `BalanceEvent` from a `balance_events` row. */
export function toBalanceEvent(row: Record<string, unknown>): BalanceEvent {
  return {
    id: String(row['id']),
    accountId: String(row['account_id']),
    time: Number(row['time']),
    kind: String(row['kind']) as BalanceEvent['kind'],
    deltaMicros: Number(row['delta_micros']),
    balanceAfterMicros: Number(row['balance_after_micros']),
  };
}
