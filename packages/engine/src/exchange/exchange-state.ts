import type { DecodeOptions, Protocol } from '@switchyard/core';
import type { Admission } from '../admission/admit-request';
import type { Principal } from '../auth/authenticate';
import type { Attempt } from '../generation/attempt-targets';
import type { ForwardedRequestParts } from '../generation/forwarded-request-parts';

/** What one exchange has learned so far; read once, by its settlement. */
export type ExchangeState = {
  readonly protocol: Protocol;
  readonly requestId: string;
  readonly startedAt: number;
  principal?: Principal;
  /** What the request's headers say about decoding its body (the protocol version it speaks). */
  decodeOptions: DecodeOptions;
  /** The client's vendor flags (beta headers, query) for an upstream of its protocol. */
  forwarded?: ForwardedRequestParts;
  model?: string;
  stream?: boolean;
  /** The request's hold on limits and money, once admitted. */
  admission?: Admission;
  attempt?: Attempt;
  firstByteAt?: number;
  /** An answer produced but not yet handed to the transport: let go if the exchange fails first. */
  abandonAnswer?: () => void;
  settled: boolean;
};
