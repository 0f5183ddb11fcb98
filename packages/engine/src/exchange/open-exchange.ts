import { createId, type Codec, type DecodeOptions, type EndpointFacts, type GatewayError, type JSONObject, type Protocol } from '@signalbox/core';
import type { Principal, RequestHeaders } from '../auth/authenticate';
import type { GenerationOutput } from '../generation/generation-output';
import type { ClientStop } from '../interruption/create-interruptions';
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
  return new OpenExchange(state, dependencies);
}

/**
 * An exchange as one object per request, its methods shared on the prototype: no closures made per
 * request (an exchange lives as long as its stream, a thousand open streams hold a thousand).
 */
class OpenExchange implements Exchange {
  readonly requestId: string;
  readonly startedAt: number;
  readonly protocol: Protocol;
  readonly codec: Codec;
  readonly #state: ExchangeState;
  readonly #dependencies: ExchangeDependencies;

  constructor(state: ExchangeState, dependencies: ExchangeDependencies) {
    this.requestId = state.requestId;
    this.startedAt = state.startedAt;
    this.protocol = state.codec.protocol;
    this.codec = state.codec;
    this.#state = state;
    this.#dependencies = dependencies;
  }

  get principal(): Principal | undefined {
    return this.#state.principal;
  }

  get decodeOptions(): DecodeOptions {
    return this.#state.decodeOptions;
  }

  authenticate(requestHeaders: RequestHeaders, query?: Readonly<Record<string, unknown>>): Promise<Principal> {
    return authenticateOnExchange(this.#state, this.#dependencies, requestHeaders, query);
  }

  generate(body: unknown, stop: ClientStop): Promise<GenerationOutput> {
    return generateOnExchange(this.#state, this.#dependencies, body, stop);
  }

  warmUp(body: unknown): Promise<GenerationOutput> {
    return warmUpOnExchange(this.#state, this.#dependencies, body);
  }

  compact(body: unknown, stop: ClientStop): Promise<JSONObject> {
    return compactOnExchange(this.#state, this.#dependencies, body, stop);
  }

  settledRecord(): Promise<UsageRecord> | undefined {
    return settledRecordOf(this.#state);
  }

  refuse(error: GatewayError): void {
    const state = this.#state;
    if (state.settled) return;
    beginServing(state, this.#dependencies.observer);
    void settleExchange(state, endingOfFailure(error), this.#dependencies.settlement);
  }
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
