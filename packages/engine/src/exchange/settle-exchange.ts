import type { SecretRecogniser } from '@signalbox/core';
import type { PendingCharge } from '../admission/admit-request';
import { releaseAttempt } from '../generation/attempt-targets';
import type { Principal } from '../auth/authenticate';
import { buildUsageRecord } from '../usage/build-usage-record';
import type { UsageWriter } from '../usage/create-usage-writer';
import { usageEntryOf } from '../usage/usage-entry-of';
import type { UsageRecord } from '../usage/usage-record';
import type { ExchangeEnding } from './exchange-ending';
import type { ExchangeState } from './exchange-state';

export type Settlement = {
  /** Commits each request's charge with its ledger row, in batches off the response path. */
  writer: UsageWriter;
  /** Hands the host its usage record once the request's row and charge are committed. */
  record(record: UsageRecord): void;
  onError(error: unknown): void;
  now(): number;
  /** Scrubs the record's client-chosen strings: the shapes and the engine's upstream keys. */
  secrets: SecretRecogniser;
};

/**
 * The one place a request's outcome becomes money and a record: releases its concurrency slot and
 * counts its tokens at once, then queues its hold (to be settled at the real cost) and its ledger
 * row for the usage writer, which commits both in one transaction and then hands the host the
 * usage record with the charge the store decided. Every ending goes through here (answers,
 * streams, refusals, failures and client aborts) and a second call for the same exchange does
 * nothing. It never rejects: a failure is reported to `settlement.onError`. The generation's
 * watch (its deadline, the drain's count) is released once the record is queued.
 */
export async function settleExchange(state: ExchangeState, ending: ExchangeEnding, settlement: Settlement): Promise<void> {
  if (state.settled) return;
  state.settled = true;
  state.abandonAnswer?.();
  state.abandonAnswer = undefined;
  // The credential that served stops counting the request in flight.
  releaseAttempt(state.attempt);
  try {
    await recordEnding(state, ending, settlement);
  } catch (error) {
    settlement.onError(error);
  } finally {
    state.interruption?.release();
  }
}

async function recordEnding(state: ExchangeState, ending: ExchangeEnding, settlement: Settlement): Promise<void> {
  let pending: PendingCharge = { reservation: undefined, costMicros: 0, cacheSavingsMicros: 0 };
  try {
    if (state.admission) pending = await state.admission.finish(ending.usage, state.attempt?.model);
  } catch (error) {
    settlement.onError(error);
  }
  const charge = { costMicros: 0, uncoveredMicros: pending.costMicros, cacheSavingsMicros: pending.cacheSavingsMicros };
  const unsettled = buildUsageRecord(state, ending, charge, settlement.now(), settlement.secrets);
  state.record = unsettled;
  state.recorded?.resolve(unsettled);
  const { watcher } = state;
  state.attempt?.watcher?.ended?.({ kind: 'served', record: unsettled });
  // The ending is built only when a watcher asks for it: without an observer a settlement does no observation work.
  watcher?.settled?.({ record: unsettled, route: state.route, group: groupOf(state.principal), upstreamVendor: state.attempt?.target?.codec.descriptor.vendor });
  await settlement.writer.write({
    commit: {
      entry: usageEntryOf(unsettled),
      ...(pending.reservation && { reservation: pending.reservation }),
      costMicros: pending.costMicros,
    },
    committed(settled) {
      // A batch given up after its retry charged nothing: the whole cost is reported uncovered.
      const charge = settled
        ? { costMicros: settled.chargedMicros, uncoveredMicros: settled.uncoveredMicros }
        : { costMicros: 0, uncoveredMicros: pending.costMicros };
      const record = { ...unsettled, ...charge };
      watcher?.recorded?.(record);
      settlement.record(record);
    },
  });
}

/** The group a request counts under: its key's own, else its account's; none before the key was known. */
function groupOf(principal: Principal | undefined): string | undefined {
  return principal && (principal.key.group ?? principal.account.group);
}
