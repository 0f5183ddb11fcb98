import { ClientAbortedError, GatewayError } from '@signalbox/core';
import type { ClientStop, Interruption } from '../interruption/create-interruptions';
import { interruptionOf } from '../interruption/interruption-errors';
import type { ExchangeDependencies } from './exchange-dependencies';
import { endingOfFailure } from './exchange-ending';
import { beginServing, type ExchangeState } from './exchange-state';
import { settleExchange } from './settle-exchange';

/**
 * What runs on an exchange: a function made once (not a closure per request), given the exchange,
 * what the transport handed in, and the watch whose `signal` stops it.
 */
export type ExchangeWork<Input, Output> = (state: ExchangeState, dependencies: ExchangeDependencies, input: Input, interruption: Interruption) => Promise<Output>;

/**
 * Runs one generation (or compaction) from its start: watched for the client leaving (`client`), the
 * route's deadline and shutdown, all on the one signal of the watch `work` gets; any failure is
 * settled and rethrown as the error the client gets.
 */
export async function runOnExchange<Input, Output>(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  client: ClientStop,
  work: ExchangeWork<Input, Output>,
  input: Input,
): Promise<Output> {
  beginServing(state, dependencies.observer);
  try {
    const interruption = dependencies.interruptions.watch(state.startedAt, client);
    state.interruption = interruption;
    return await work(state, dependencies, input, interruption);
  } catch (error) {
    const failure = failureOf(error, state.interruption);
    await settleExchange(state, endingOfFailure(failure), dependencies.settlement);
    throw failure;
  }
}

/**
 * What the client is told of a failed run: a request the gateway ended (shutdown, deadline) before
 * the client left gets the error it was ended with (its watch's reason); a client that left is told
 * apart explicitly; anything else unexpected is an internal error.
 */
function failureOf(error: unknown, interruption: Interruption | undefined): GatewayError | ClientAbortedError {
  const interrupted = interruption && interruptionOf(interruption.signal);
  return interrupted ?? (ClientAbortedError.isInstance(error) ? error : GatewayError.from(error));
}
