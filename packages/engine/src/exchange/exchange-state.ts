import type { DecodeOptions, Protocol } from '@signalbox/core';
import type { Admission } from '../admission/admit-request';
import type { Principal, RequestHeaders } from '../auth/authenticate';
import type { ExchangeWatcher } from '../observation/engine-observer';
import type { UsageRecord } from '../usage/usage-record';
import type { Attempt } from '../generation/attempt-targets';
import type { ForwardedRequestParts } from '../generation/forwarded-request-parts';

/** What one exchange has learned so far; read once, by its settlement. */
export type ExchangeState = {
  readonly protocol: Protocol;
  readonly requestId: string;
  readonly startedAt: number;
  /** The client's request headers, kept for the observer (a trace context). */
  readonly headers?: RequestHeaders;
  principal?: Principal;
  /** What the request's headers say about decoding its body (the protocol version it speaks). */
  decodeOptions: DecodeOptions;
  /** The client's vendor flags (beta headers, query) for an upstream of its protocol. */
  forwarded?: ForwardedRequestParts;
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
  settled: boolean;
  /** A generation, compaction or refusal began: this exchange will end with a usage record. */
  serving?: boolean;
  /** The usage record once settled (its charge not yet decided), and who waits for it. */
  record?: UsageRecord;
  onRecord?: (record: UsageRecord) => void;
  /** Follows the exchange for the host's observer, from the start of its generation or its refusal. */
  watcher?: ExchangeWatcher;
};
