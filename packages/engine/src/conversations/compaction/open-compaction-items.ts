import { invalidParameter, type Codec, type OpenedCompactions } from '@signalbox/core';
import type { ExpansionBudget } from '../expansion-budget';
import type { CompactionSealer } from './create-compaction-sealer';

/**
 * A generation or compaction body with its compaction items opened into their summaries, for the
 * account that sent it. An item that does not open here — sealed by another gateway or under another
 * secret, for another account, or changed — is a 400 naming the item, never an upstream call. Each
 * summary counts against the request's expansion budget as it is opened (a 413 past it).
 */
export function openCompactionItems(
  codec: Codec,
  body: unknown,
  accountId: string,
  sealer: CompactionSealer,
  budget: ExpansionBudget,
): OpenedCompactions {
  if (!codec.compaction) return { body, triggered: false };
  return codec.compaction.openCompactionItems(body, (encryptedContent, path) => {
    const summary = sealer.open(encryptedContent, accountId);
    if (summary !== undefined) {
      budget.spend(Buffer.byteLength(summary), 'input');
      return summary;
    }
    throw invalidParameter(
      [...path, 'encrypted_content'],
      'this compaction item cannot be opened by this gateway for this account (it was written by another gateway, ' +
        'under another secret or for another account, or it was changed); compact the conversation again here',
    );
  });
}
