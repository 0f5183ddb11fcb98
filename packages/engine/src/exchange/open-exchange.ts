import { createId, type Codec, type DecodeOptions, type EndpointFacts } from '@signalbox/core';
import type { RequestHeaders } from '../auth/authenticate';
import type { UsageRecord } from '../usage/usage-record';
import { authenticateOnExchange } from './authenticate-on-exchange';
import type { Exchange } from './exchange';
import type { ExchangeDependencies } from './exchange-dependencies';
import type { ExchangeTransport } from './exchange-transport';
import { endingOfFailure } from './exchange-ending';
import { beginServing, type ExchangeState } from './exchange-state';
import { compactOnExchange, generateOnExchange } from './generate-on-exchange';
import { warmUpOnExchange } from './warm-up-on-exchange';
import { settleExchange } from './settle-exchange';

/**
 * What the transport knows of a request when it opens its exchange: the client's headers (for the
 * observer), where the gateway is mounted (`/llm`; empty at the root), which the paths named in
 * its refusals start with, and what its endpoint's path says of it (a model named in the path).
 */
export type ExchangeOpening = { headers?: RequestHeaders; mountPath?: string; endpoint?: EndpointFacts; transport?: ExchangeTransport };

/**
 * One exchange, stamped now with a fresh request id on the engine's clock: the owner of its state
 * and its settlement. It authenticates the caller, runs a generation or compaction on its state
 * (`generate-on-exchange.ts`), takes the refusals the transport met, and tells the transport its
 * record once settled.
 */
export function openExchange(codec: Codec, opening: ExchangeOpening, dependencies: ExchangeDependencies): Exchange {
  const requestId = createId('req_');
  const startedAt = dependencies.clock.now();
  const { headers, mountPath = '', endpoint, transport } = opening;
  const decodeOptions: DecodeOptions = { foreignFields: dependencies.foreignFieldsOf(codec), mountPath, ...(endpoint && { endpoint }) };
  const state: ExchangeState = { codec, requestId, startedAt, headers, decodeOptions, settled: false, ...(transport && { transport }) };
  return {
    requestId,
    startedAt,
    protocol: codec.protocol,
    codec,
    get principal() {
      return state.principal;
    },
    get decodeOptions() {
      return state.decodeOptions;
    },
    authenticate: (requestHeaders, query) => authenticateOnExchange(state, dependencies, requestHeaders, query),
    generate: (body, signal) => generateOnExchange(state, dependencies, body, signal),
    warmUp: body => warmUpOnExchange(state, dependencies, body),
    compact: (body, signal) => compactOnExchange(state, dependencies, body, signal),
    settledRecord: () => settledRecordOf(state),
    refuse(error) {
      if (state.settled) return;
      beginServing(state, dependencies.observer);
      void settleExchange(state, endingOfFailure(error), dependencies.settlement);
    },
  };
}

/**
 * The record once the exchange settles, through one deferred value made at the first ask; none for
 * an exchange that began nothing ending in a record.
 */
function settledRecordOf(state: ExchangeState): Promise<UsageRecord> | undefined {
  if (state.recorded) return state.recorded.promise;
  if (!state.record && !state.serving) return undefined;
  let resolve!: (record: UsageRecord) => void;
  const promise = new Promise<UsageRecord>(settle => (resolve = settle));
  state.recorded = { promise, resolve };
  if (state.record) resolve(state.record);
  return promise;
}
