import type { Reservation, Settled, UsageCommit } from '@signalbox/accounts';
import { USAGE_COLUMNS, usageRowValues } from '@signalbox/accounts/sql';
import { settleInTransaction, type LedgerContext } from './settle-in-transaction';

/**
 * One ledger row to commit, compact: its values in `USAGE_COLUMNS` order (the two charge columns
 * filled in once its hold is settled), the hold it settles (its id and account are all that is
 * needed: the amount is the stored or lent hold's) and its cost. Positional values cross to the
 * ledger thread at about half the cost of the entry object.
 */
export type UsageRowCommit = {
  values: Array<string | number | null>;
  reservation?: Pick<Reservation, 'id' | 'accountId'>;
  costMicros: number;
};

const REQUEST_ID = USAGE_COLUMNS.indexOf('request_id');
const CHARGED = USAGE_COLUMNS.indexOf('cost_micros');
const UNCOVERED = USAGE_COLUMNS.indexOf('uncovered_micros');
const UNSETTLED: Settled = { chargedMicros: 0, uncoveredMicros: 0 };

/** The commit as a compact row. */
export function toUsageRowCommit({ entry, reservation, costMicros }: UsageCommit): UsageRowCommit {
  return {
    values: usageRowValues(entry, UNSETTLED),
    ...(reservation && { reservation: { id: reservation.id, accountId: reservation.accountId } }),
    costMicros,
  };
}

/**
 * Commits a batch in one transaction: for each row, a request id already written is not written
 * again (its hold, if still there, is released without charge); otherwise its hold is settled at
 * its cost, as `settle` settles it, and the row inserted with the charge decided. A failure anywhere
 * rolls back every charge and every row of the batch.
 */
export function commitUsageRows(context: LedgerContext, rows: readonly UsageRowCommit[]): Settled[] {
  const { statements } = context;
  return settleInTransaction(context, settle =>
    rows.map(({ values, reservation, costMicros }): Settled => {
      const cost = Math.max(0, Math.round(costMicros));
      if (statements.selectUsageExists.get(values[REQUEST_ID]!)) {
        // Already written: release a hold still left without charge, so no money stays held for it.
        if (reservation) settle(reservation, 0);
        return { chargedMicros: 0, uncoveredMicros: cost };
      }
      const settled = (reservation && settle(reservation, cost)) || { chargedMicros: 0, uncoveredMicros: cost };
      values[CHARGED] = settled.chargedMicros;
      values[UNCOVERED] = settled.uncoveredMicros;
      statements.insertUsage.run(...values);
      return settled;
    }),
  );
}
