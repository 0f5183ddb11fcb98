import type { StoredResponse } from '@signalbox/accounts';
import { responseRowValues, type ItemPosition, type ResponseColumns } from '@signalbox/accounts/sql';
import { evictOldestResponses } from './evict-oldest-responses';
import type { Statements } from './prepare-statements';

/** One `saveResponse`, serialized once when it was asked for. */
export type ResponseSave = {
  record: StoredResponse;
  columns: ResponseColumns;
  positions: readonly ItemPosition[];
  maxBytesPerAccount: number;
};

/**
 * Writes one save inside the caller's transaction: replaces any row with the same id and account,
 * writes the item index, then drops the account's oldest responses while its total exceeds the cap
 * (never this one).
 */
export function writeResponse(statements: Statements, save: ResponseSave): void {
  const { record, columns, positions } = save;
  statements.deleteResponse.run(record.accountId, record.id);
  const inserted = statements.insertResponse.get(...responseRowValues(record, columns));
  const seq = Number(inserted!['seq']);
  for (const { itemId, source, position } of positions) {
    statements.insertResponseItem.run(seq, source, position, record.accountId, itemId);
  }
  evictOldestResponses(statements, record.accountId, seq, save.maxBytesPerAccount);
}
