import type { FinishReason, Protocol, Usage } from '@signalbox/core';

/**
 * How a request ended, for the usage view. `interrupted`: ended by the gateway's own shutdown (503
 * `SHUTTING_DOWN`), not by the client or the upstream.
 */
export type RequestOutcome = 'completed' | 'incomplete' | 'failed' | 'error' | 'client-aborted' | 'interrupted';

/** One line of the usage record: every request, refused ones included. */
export type UsageRecord = {
  requestId: string;
  startedAt: number;
  keyId: string | undefined;
  /** The key's visible prefix (`sbx-AbCdEfGh`). */
  keyPrefix: string | undefined;
  accountId: string | undefined;
  model: string | undefined;
  protocol: Protocol;
  upstream: string | undefined;
  /** The name of the upstream's credential that served (or last failed); never its key. */
  upstreamCredential: string | undefined;
  /** The kind of that upstream (`azure-openai`); `undefined` for its protocol's own API. */
  upstreamKind: string | undefined;
  /** The model ID sent to the upstream that served (or last failed). */
  upstreamModel: string | undefined;
  upstreamProtocol: Protocol | undefined;
  upstreamRequestId: string | undefined;
  stream: boolean;
  status: number;
  outcome: RequestOutcome;
  errorCode: string | undefined;
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
  /** True when `usage` is the gateway's estimate (a stream whose upstream reported no counts). */
  estimated: boolean;
  /** What the account was charged, in micro-units: the real cost, but never more than was held. */
  costMicros: number;
  /**
   * The part of the real cost that was not charged (micro-units), because the upstream produced more
   * than the hold covered or the hold was gone (released after its expiry). 0 normally; anything
   * else is money the operator paid the upstream and did not bill.
   */
  uncoveredMicros: number;
  /**
   * What the prompt cache saved, in micro-units: the cost had every input token been billed at the
   * route's input price, minus the real cost. Negative when cache writes cost more than reads saved.
   */
  cacheSavingsMicros: number;
  attempts: number;
  latencyMs: number;
  timeToFirstByteMs: number | undefined;
  /** The translation warnings the client was sent in `x-signalbox-warnings`. */
  warnings: readonly string[];
  /** The id of the trace the request belongs to, when an observer traces it (`EngineObserver`). */
  traceId?: string;
};

/**
 * Host-supplied sink, called once per request after its row and charge were committed to the
 * ledger (so `costMicros` is what the store charged). It must never be able to break or delay a response.
 */
export type UsageRecorder = (record: UsageRecord) => void | Promise<void>;
