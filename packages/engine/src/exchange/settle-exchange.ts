import { buildUsageRecord } from '../usage/build-usage-record';
import type { UsageRecord } from '../usage/usage-record';
import type { ExchangeEnding } from './exchange-ending';
import type { ExchangeState } from './exchange-state';

export type Settlement = {
  record(record: UsageRecord): void;
  onError(error: unknown): void;
  now(): number;
};

/**
 * The one place a request's outcome becomes money and a record: releases its concurrency slot,
 * settles its balance hold at the real cost, counts its tokens, and writes its single usage record.
 * Every ending goes through here — answers, streams, refusals, failures and client aborts — and a
 * second call for the same exchange does nothing.
 */
export async function settleExchange(state: ExchangeState, ending: ExchangeEnding, settlement: Settlement): Promise<void> {
  if (state.settled) return;
  state.settled = true;
  state.abandonAnswer?.();
  state.abandonAnswer = undefined;
  let charge = { costMicros: 0, uncoveredMicros: 0 };
  try {
    if (state.admission) charge = await state.admission.finish(ending.usage);
  } catch (error) {
    settlement.onError(error);
  }
  settlement.record(buildUsageRecord(state, ending, charge, settlement.now()));
}
