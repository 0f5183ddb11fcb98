import type { ClientAbortedError, GatewayError, Protocol } from '@signalbox/core';
import type { RequestHeaders } from '../auth/authenticate';
import type { AffinityOutcome } from '../affinity/session-affinity';
import type { HealthMark } from '../upstreams/health-store';
import type { UsageRecord } from '../usage/usage-record';

/**
 * What a host plugs into the engine to watch its work: metrics (`/metrics`), traces, anything that
 * follows requests, upstream attempts and ledger batches. Every method is optional and called on
 * the request path, so it must be cheap; one that throws is caught and reported
 * (`EngineOptions.onObserverError`), never allowed to break or delay a request. Without an
 * observer the engine does no observation work at all.
 */
export type EngineObserver = {
  /**
   * A request starts being served (a generation or compaction) or is refused by the transport
   * before that (a bad key, body or path). The watcher returned follows it to its usage record.
   */
  watchExchange?(start: ExchangeStart): ExchangeWatcher | undefined;
  /** The usage writer committed one batch of ledger rows, or gave it up after its retries. */
  ledgerBatchCommitted?(batch: LedgerBatch): void;
  /**
   * This engine learned something of an upstream's health from an answer, or an operator acted: a
   * credential cooling down, taken out or enabled again, a circuit opened or closed. What other
   * instances share is applied without a call here, so each instance reports only its own.
   */
  upstreamHealthChanged?(mark: HealthMark): void;
  /**
   * A request of a route that keeps conversations on a credential was served: on the credential its
   * conversation kept, on a first one, or moved by force from one that could not serve it.
   */
  sessionAffinity?(outcome: AffinityOutcome): void;
};

export type ExchangeStart = {
  requestId: string;
  /** The protocol of the interface the request came in on. */
  protocol: Protocol;
  /** When it arrived (the engine's clock, ms since the epoch). */
  startedAt: number;
  /** The client's request headers as the transport read them (for a trace context such as `traceparent`). */
  headers: RequestHeaders | undefined;
};

/** Follows one exchange. */
export type ExchangeWatcher = {
  /** The id of the trace the request belongs to, kept in its usage record. */
  readonly traceId?: string;
  /** One call to an upstream begins (the first, a retry of the same target, or a failover to the next). */
  attemptStarted?(attempt: AttemptStart): AttemptWatcher | undefined;
  /** The answer is handed to the transport: the JSON body, or a stream at its commit point. */
  responseStarted?(kind: 'json' | 'stream'): void;
  /**
   * The request ended, however it ended, and its ledger row was queued: the record's charge is not
   * decided yet (`costMicros` 0; `uncoveredMicros` is the cost to be charged).
   */
  settled?(ending: ObservedEnding): void;
  /** The request's row and charge were committed (or the batch given up): the record with its charge. */
  recorded?(record: UsageRecord): void;
};

export type ObservedEnding = {
  record: UsageRecord;
  /**
   * The configured model ID the request was routed by, or `undefined` when its model matched no
   * route (or it ended before routing): a bounded value, unlike the client-sent `record.model`.
   */
  route: string | undefined;
  /**
   * The group of the key (or of its account when the key has none) the request was made with, or
   * `undefined` for a request refused before its key was known or a key without a group.
   */
  group: string | undefined;
  /** The vendor of the upstream the request last reached (its codec's descriptor `vendor`), if it reached one. */
  upstreamVendor: string | undefined;
};

export type AttemptStart = {
  /** 1 for the first attempt. */
  number: number;
  route: string;
  /** The upstream's config name, its protocol, whose API that is (its codec's descriptor `vendor`) and the model ID it is sent. */
  upstream: string;
  /** The name of the credential it uses; absent when none of the upstream's may take it (the attempt fails with 503 `NO_ACCOUNT_AVAILABLE`). */
  credential?: string;
  protocol: Protocol;
  vendor: string;
  model: string;
  /** The previous attempt's failure that led to this one, and whether this one goes to another upstream. */
  after?: { errorCode: string; failover: boolean };
};

/** Follows one upstream attempt. */
export type AttemptWatcher = {
  /** Headers to send with this attempt's upstream call (a trace context such as `traceparent`). */
  readonly headers?: Readonly<Record<string, string>>;
  ended?(ending: AttemptEnding): void;
};

/**
 * How an attempt ended: `served` once the request it served settled (a stream's attempt lasts to
 * the stream's end), or `failed` before the commit point, with whether another attempt follows.
 */
export type AttemptEnding =
  | { kind: 'served'; record: UsageRecord }
  | { kind: 'failed'; error: GatewayError | ClientAbortedError; retried: boolean };

export type LedgerBatch = {
  /** Requests in the batch. */
  rows: number;
  /** How long the batch took, its retries' waits included (ms). */
  durationMs: number;
  /** False when the batch was given up after its retries (nothing of it was written). */
  committed: boolean;
  /** Requests still waiting for the ledger after this batch. */
  queued: number;
};
