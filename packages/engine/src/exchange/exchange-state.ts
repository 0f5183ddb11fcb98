import { GatewayError, type Codec, type DecodeOptions, type Protocol } from '@signalbox/core';
import type { Admission } from '../admission/admit-request';
import type { Principal, RequestHeaders } from '../auth/authenticate';
import type { Interruption } from '../interruption/create-interruptions';
import type { EngineObserver, ExchangeWatcher } from '../observation/engine-observer';
import type { UsageRecord } from '../usage/usage-record';
import type { Attempt } from '../generation/attempt-targets';
import type { ForwardedRequestParts } from '../generation/forwarded-request-parts';
import type { ExchangeTransport } from './exchange-transport';

/**
 * What one exchange has learned so far. Its authentication and its generation write it; its
 * settlement turns it into the usage record, once; the observer's watcher, the transport's
 * `settledRecord()` and the generation itself (the caller, the hold, the deadline) read it.
 */
export type ExchangeState = {
  /** The codec of the interface the request came in on. */
  readonly codec: Codec;
  readonly requestId: string;
  /** When the request arrived, on the engine's clock. */
  readonly startedAt: number;
  /** The client's request headers, kept for the observer (a trace context). */
  readonly headers?: RequestHeaders;
  /** A transport other than an HTTP response (a WebSocket): its framing, record protocol and connection memory. */
  readonly transport?: ExchangeTransport;
  principal?: Principal;
  /** Settles once the caller's account, read again from the store, still lets it in (awaited before the upstream call). */
  accountConfirmed?: Promise<void>;
  /** How its body is decoded: refused foreign fields, the mount path, the protocol version its headers declare. */
  decodeOptions: DecodeOptions;
  /** The client's vendor flags (beta headers, query) for an upstream of its protocol. */
  forwarded?: ForwardedRequestParts;
  /**
   * The key of the conversation the request continues, when one was determined for it: it becomes
   * the prompt cache key of a request whose client sent none.
   */
  conversationKey?: string;
  model?: string;
  /** The configured model ID of the route the request matched. */
  route?: string;
  stream?: boolean;
  /** The request's hold on limits and money, once admitted. */
  admission?: Admission;
  attempt?: Attempt;
  firstByteAt?: number;
  /** An answer produced but not yet handed to the transport: let go if the exchange fails first. */
  abandonAnswer?: () => void;
  /** The generation's watch for its deadline and the engine's drain, from its start; released once settled. */
  interruption?: Interruption;
  settled: boolean;
  /** A generation, compaction or refusal began: this exchange will end with a usage record. */
  serving?: boolean;
  /** The usage record once settled (its charge not yet decided). */
  record?: UsageRecord;
  /** The transport's wait for the record (`settledRecord()`), made when it first asks. */
  recorded?: { promise: Promise<UsageRecord>; resolve(record: UsageRecord): void };
  /** Follows the exchange for the host's observer, from the start of its generation or its refusal. */
  watcher?: ExchangeWatcher;
};

/** The caller the exchange authenticated; a generation before authentication is the transport's mistake. */
export function principalOf(state: ExchangeState): Principal {
  if (state.principal) return state.principal;
  throw new GatewayError({ code: 'INTERNAL_ERROR', message: 'The request was not authenticated (mount the auth middleware first).' });
}

/**
 * The exchange will end with a usage record (a generation, compaction or refusal began), followed
 * from now by the host's observer when it watches exchanges: its watcher is started once.
 */
export function beginServing(state: ExchangeState, observer: EngineObserver | undefined): void {
  state.serving = true;
  if (state.watcher || !observer?.watchExchange) return;
  state.watcher = observer.watchExchange({ requestId: state.requestId, protocol: recordedProtocolOf(state), startedAt: state.startedAt, headers: state.headers });
}

/** The protocol the exchange is recorded under: its transport's (`openai-responses-ws`), else its codec's. */
export function recordedProtocolOf(state: ExchangeState): Protocol {
  return state.transport?.recordedProtocol ?? state.codec.protocol;
}
