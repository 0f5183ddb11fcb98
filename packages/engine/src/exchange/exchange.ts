import type { Codec, GatewayError, JSONObject, Protocol } from '@signalbox/core';
import type { Principal, RequestHeaders } from '../auth/authenticate';
import type { StoredResponses } from '../conversations/stored-responses';
import type { GenerationOutput } from '../generation/generation-output';
import type { UsageRecord } from '../usage/usage-record';

/**
 * One client request, from its arrival to its settlement. The transport opens it first, then
 * authenticates, generates (or counts tokens, or lists models) through it, and hands it any error it
 * could not answer. The exchange alone decides what is billed and recorded: exactly one usage record
 * per exchange that was refused or generated, however it ended.
 */
export type Exchange = {
  readonly requestId: string;
  readonly protocol: Protocol;
  /** The codec of the interface the request came in on: its envelope renders the request's errors. */
  readonly codec: Codec;
  readonly principal: Principal | undefined;
  /**
   * Checks the caller's key and version headers, and keeps the vendor flags of the request (its
   * descriptor's forwarded headers and `query` parameters) for the upstream call.
   */
  authenticate(headers: RequestHeaders, query?: Readonly<Record<string, unknown>>): Promise<Principal>;
  /** Runs the generation; throws `GatewayError` (or `ClientAbortedError`) before the commit point, never after. */
  generate(body: unknown, signal: AbortSignal): Promise<GenerationOutput>;
  /**
   * Remote compaction (`codec.compaction`): one generation on the route's target writes the summary,
   * billed and recorded like any other; the answer is the protocol's compacted response.
   */
  compact(body: unknown, signal: AbortSignal): Promise<JSONObject>;
  /** The documented input-token estimate, in the protocol's answer shape. Nothing is billed. */
  countTokens(body: unknown): JSONObject;
  /** The routes this key may use, in the protocol's list shape. */
  listModels(): JSONObject;
  /** The caller's stored responses (read, delete, list input items); nothing is billed. */
  storedResponses(): StoredResponses;
  /**
   * The request's usage record once it settles (its charge not yet decided: see `UsageRecord`), for
   * an access line; `undefined` when nothing began that ends in a record (a models list, a token
   * count, a stored-response read).
   */
  settledRecord(): Promise<UsageRecord> | undefined;
  /** Ends the exchange with a refusal the transport met (bad key, body, path); a no-op once settled. */
  refuse(error: GatewayError): void;
};
