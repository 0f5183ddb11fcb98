import { ClientAbortedError, GatewayError } from '@signalbox/core';
import type { Interruption } from '../interruption/create-interruptions';
import { eitherSignal } from '../interruption/either-signal';
import { interruptionOf } from '../interruption/interruption-errors';
import type { ExchangeDependencies } from './exchange-dependencies';
import { endingOfFailure } from './exchange-ending';
import { beginServing, type ExchangeState } from './exchange-state';
import { settleExchange } from './settle-exchange';

/**
 * Runs one generation (or compaction) from its start: watched for the client leaving, the route's
 * deadline and shutdown (`work` gets the watch, for the deadline, and the signal that stops it);
 * any failure is settled and rethrown as the error the client gets.
 */
export async function runOnExchange<Output>(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  clientSignal: AbortSignal,
  work: (interruption: Interruption, signal: AbortSignal) => Promise<Output>,
): Promise<Output> {
  beginServing(state, dependencies.observer);
  try {
    const interruption = dependencies.interruptions.watch(state.startedAt);
    state.interruption = interruption;
    // Everything below stops when the client leaves or the gateway ends the request itself.
    return await work(interruption, eitherSignal(clientSignal, interruption.signal));
  } catch (error) {
    const failure = failureOf(error, clientSignal, state.interruption);
    await settleExchange(state, endingOfFailure(failure), dependencies.settlement);
    throw failure;
  }
}

/**
 * What the client is told of a failed run: a client that left is told apart explicitly; a request
 * the gateway ended (shutdown, deadline) gets the error it was ended with; anything else unexpected
 * is an internal error.
 */
function failureOf(error: unknown, clientSignal: AbortSignal, interruption: Interruption | undefined): GatewayError | ClientAbortedError {
  const interrupted = clientSignal.aborted || !interruption ? undefined : interruptionOf(interruption.signal);
  return interrupted ?? (ClientAbortedError.isInstance(error) ? error : GatewayError.from(error));
}
