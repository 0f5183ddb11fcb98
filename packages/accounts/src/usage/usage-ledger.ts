import type { Reservation, Settled } from '../store/account-store';

/**
 * How a request ended. `interrupted`: ended by the gateway's own shutdown (503 `SHUTTING_DOWN`),
 * not by the client or the upstream.
 */
export type UsageOutcome = 'completed' | 'incomplete' | 'failed' | 'error' | 'client-aborted' | 'interrupted';

/**
 * One row of the ledger: one request, refused and aborted ones included. Times are unix
 * milliseconds, money integer micro-units; token counts are 0 when nobody counted them.
 */
export type UsageEntry = {
  requestId: string;
  /** When the request arrived. */
  time: number;
  upstreamRequestId?: string;
  accountId?: string;
  keyId?: string;
  /** The key's visible prefix (`sbx-AbCdEfGh`), kept so a row stays readable after its key is gone. */
  keyPrefix?: string;
  /** The model ID the client asked for (bounded and scrubbed: client text). */
  model?: string;
  /** The upstream's name in the config, and the model ID sent to it. */
  upstream?: string;
  upstreamModel?: string;
  /** The config name of the upstream's credential the request used (never its key). */
  upstreamCredential?: string;
  /** The upstream's kind (`azure-openai`); absent for its protocol's own API. */
  upstreamKind?: string;
  /** The interface the client spoke (`openai-responses`, `anthropic-messages`, `openai-chat`). */
  protocol: string;
  upstreamProtocol?: string;
  stream: boolean;
  status: number;
  outcome: UsageOutcome;
  errorCode?: string;
  finishReason?: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The cache writes by lifetime: 5 minutes (with writes the upstream gave no lifetime) and 1 hour; they add up to `cacheWriteTokens`. */
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  reasoningTokens: number;
  /** True when the counts are the gateway's estimate rather than the upstream's report. */
  estimated: boolean;
  /** What the account was charged: the real cost, but never more than was held nor below a zero balance. */
  costMicros: number;
  /** The part of the real cost that was not charged (the operator paid it upstream and did not bill it). */
  uncoveredMicros: number;
  /**
   * What the prompt cache saved (micro-units): the cost had every input token been billed at the
   * input price, minus the cost. Negative when cache writes cost more than reads saved.
   */
  cacheSavingsMicros: number;
  latencyMs: number;
  timeToFirstByteMs?: number;
  attempts: number;
  /** The translation warnings the client was sent in `x-signalbox-warnings`. */
  warnings: readonly string[];
  /** The id of the trace the request belongs to (W3C trace id, 32 hex digits), when it was traced. */
  traceId?: string;
};

/**
 * A finished request, handed to the ledger: its row without the charge, the hold to settle (absent
 * when nothing was held) and the real cost. The store decides the charge inside the transaction
 * that writes the row.
 */
export type UsageCommit = {
  entry: Omit<UsageEntry, 'costMicros' | 'uncoveredMicros'>;
  reservation?: Reservation;
  costMicros: number;
};

/** Filters of a ledger query; every one given must match. `from` inclusive, `to` exclusive. */
export type UsageFilter = {
  from?: number;
  to?: number;
  accountId?: string;
  keyId?: string;
  model?: string;
  status?: number;
  outcome?: UsageOutcome;
  protocol?: string;
};

/** One page, newest first; `nextCursor` is absent on the last page and opaque to callers. */
export type UsagePage = { entries: UsageEntry[]; nextCursor?: string };

export type UsageBucket = 'minute' | 'hour' | 'day';
export type UsageGroupBy = 'model' | 'key' | 'status' | 'protocol' | 'upstream';

/** One bucket (of one group, when grouped) of a summary. */
export type UsageSummaryRow = {
  /** Start of the bucket, unix milliseconds (UTC). */
  bucketStart: number;
  /** The group's value (model ID, key id, status, protocol or upstream name); absent when ungrouped or unknown. */
  group?: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from and written to prompt caches (parts of `inputTokens`). */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costMicros: number;
  cacheSavingsMicros: number;
  /** Requests with a status of 400 or more. */
  errors: number;
  latencyP50Ms: number;
  latencyP95Ms: number;
};

/** A change of an account's balance that is not a request's charge. */
export type BalanceEvent = {
  id: string;
  accountId: string;
  time: number;
  /** `opening`: the balance the account was created with; `top-up`: money added; `adjustment`: any other change by an admin. */
  kind: 'opening' | 'top-up' | 'adjustment';
  deltaMicros: number;
  balanceAfterMicros: number;
};

/**
 * The durable record of every request and of every change to a balance. Money and ledger agree by
 * construction: a charge and its row are written in one transaction, and so are a balance change
 * and its event, so an account's balance always equals the sum of its balance events minus the sum
 * of its rows' `costMicros` (over rows not yet removed by retention).
 */
export interface UsageLedger {
  /**
   * Settles each commit's hold at its cost (as `AccountStore.settle` does) and appends its row, all
   * in one transaction: every charge with its row, or none of them. Returns what each commit was
   * charged, in order; a commit whose hold was already settled or released is charged nothing and
   * its whole cost is uncovered. A request id already in the ledger is not written twice.
   */
  commitUsage(commits: readonly UsageCommit[]): Promise<Settled[]>;
  /** A page of rows matching `filter`, newest first (by `time`, then request id). */
  listUsage(filter: UsageFilter, page: { limit: number; cursor?: string }): Promise<UsagePage>;
  /** Totals per bucket (and per group), oldest bucket first, over the rows matching `filter`. */
  summarizeUsage(filter: UsageFilter, options: { bucket: UsageBucket; groupBy?: UsageGroupBy }): Promise<UsageSummaryRow[]>;
  /** Removes rows whose `time` is before `before` (retention); returns how many. */
  deleteUsageBefore(before: number): Promise<number>;
  /** The account's balance events, newest first. */
  listBalanceEvents(accountId: string, page: { limit: number; cursor?: string }): Promise<{ events: BalanceEvent[]; nextCursor?: string }>;
}
