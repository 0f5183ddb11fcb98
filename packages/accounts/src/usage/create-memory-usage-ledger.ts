import { createId } from '@signalbox/core';
import type { Reservation, Settled } from '../store/account-store';
import { decodeSequenceCursor, decodeUsageCursor, encodeSequenceCursor, encodeUsageCursor } from './usage-cursor';
import { matchesUsageFilter, newestFirst } from './matches-usage-filter';
import { summarizeEntries } from './summarize-entries';
import type { BalanceEvent, UsageEntry, UsageLedger } from './usage-ledger';

/** What the memory ledger needs from the account store it lives in. */
export type MemoryLedgerHost = {
  /** Settles a hold as `settle` does, synchronously; `undefined` when it was already settled or released. */
  settleHold(reservation: Reservation, costMicros: number): Settled | undefined;
  now(): number;
};

/** The ledger plus the hook the account methods call to record a balance change beside it. */
export type MemoryUsageLedger = UsageLedger & {
  recordBalanceEvent(accountId: string, kind: BalanceEvent['kind'], deltaMicros: number, balanceAfterMicros: number): void;
};

/**
 * The usage ledger of the memory account store. Node runs each call to completion, so a batch of
 * commits (their charges and their rows) is applied as a whole before any other call sees it; rows
 * are kept by request id, so a request is written and charged once.
 */
export function createMemoryUsageLedger(host: MemoryLedgerHost): MemoryUsageLedger {
  const entries = new Map<string, UsageEntry>();
  const events: { sequence: number; event: BalanceEvent }[] = [];
  const matching = (filter: Parameters<UsageLedger['listUsage']>[0]) =>
    [...entries.values()].filter(entry => matchesUsageFilter(entry, filter));

  return {
    recordBalanceEvent(accountId, kind, deltaMicros, balanceAfterMicros) {
      const event = { id: createId('bev_'), accountId, time: host.now(), kind, deltaMicros, balanceAfterMicros };
      events.push({ sequence: events.length + 1, event });
    },
    async commitUsage(commits) {
      return commits.map(({ entry, reservation, costMicros }): Settled => {
        const cost = Math.max(0, Math.round(costMicros));
        if (entries.has(entry.requestId)) {
          // Already written: release a hold still left without charge, so no money stays held for it.
          if (reservation) host.settleHold(reservation, 0);
          return { chargedMicros: 0, uncoveredMicros: cost };
        }
        const settled = (reservation && host.settleHold(reservation, cost)) || { chargedMicros: 0, uncoveredMicros: cost };
        entries.set(entry.requestId, {
          ...structuredClone(entry),
          costMicros: settled.chargedMicros,
          uncoveredMicros: settled.uncoveredMicros,
        });
        return settled;
      });
    },
    async listUsage(filter, page) {
      const after = page.cursor === undefined ? undefined : decodeUsageCursor(page.cursor);
      const sorted = matching(filter)
        .filter(
          entry =>
            !after || entry.time < after.time || (entry.time === after.time && entry.requestId < after.requestId),
        )
        .sort(newestFirst);
      const limit = Math.max(1, Math.floor(page.limit));
      const pageEntries = sorted.slice(0, limit).map(entry => structuredClone(entry));
      const last = pageEntries.at(-1);
      return {
        entries: pageEntries,
        ...(sorted.length > limit && last && { nextCursor: encodeUsageCursor(last) }),
      };
    },
    async summarizeUsage(filter, options) {
      return summarizeEntries(matching(filter), options);
    },
    async deleteUsageBefore(before) {
      let removed = 0;
      for (const [requestId, entry] of entries) {
        if (entry.time < before) {
          entries.delete(requestId);
          removed++;
        }
      }
      return removed;
    },
    async listBalanceEvents(accountId, page) {
      const before = page.cursor === undefined ? Number.POSITIVE_INFINITY : decodeSequenceCursor(page.cursor);
      const limit = Math.max(1, Math.floor(page.limit));
      const newer = events.filter(item => item.event.accountId === accountId && item.sequence < before).reverse();
      const pageEvents = newer.slice(0, limit);
      const last = pageEvents.at(-1);
      return {
        events: pageEvents.map(item => ({ ...item.event })),
        ...(newer.length > limit && last && { nextCursor: encodeSequenceCursor(last.sequence) }),
      };
    },
  };
}
