import type { Codec, DecodeOptions, GatewayError, JSONObject, Protocol } from '@signalbox/core';
import type { Principal, RequestHeaders } from '../auth/authenticate';
import type { GenerationOutput } from '../generation/generation-output';
import type { ClientStop } from '../interruption/create-interruptions';
import type { UsageRecord } from '../usage/usage-record';

/** A request as the engine stamps it on arrival: a fresh id (`req_…`) and the time, on the engine's clock. */
export type RequestStamp = {
  readonly requestId: string;
  /** Milliseconds since the epoch, from the engine's `Clock`: latency, deadlines and the record count from it. */
  readonly startedAt: number;
};

/**
 * One client request the gateway bills or records, from its arrival to its settlement. The
 * transport opens it first (`engine.openExchange`), then authenticates and generates (or compacts)
 * through it, and hands it any error it could not answer. The exchange alone decides what is billed
 * and recorded: exactly one usage record per exchange that was refused or generated, however it
 * ended. Reads that bill nothing (models, token counts, stored responses) are the engine's.
 */
export type Exchange = RequestStamp & {
  readonly protocol: Protocol;
  /** The codec of the interface the request came in on: its envelope renders the request's errors. */
  readonly codec: Codec;
  readonly principal: Principal | undefined;
  /**
   * How its body is decoded: the other protocols' fields refused on its endpoint, where the gateway
   * is mounted, and, once authenticated, the protocol version its headers declare.
   */
  readonly decodeOptions: DecodeOptions;
  /**
   * Checks the caller's key and version headers, and keeps the vendor flags of the request (its
   * descriptor's forwarded headers and `query` parameters) for the upstream call.
   */
  authenticate(headers: RequestHeaders, query?: Readonly<Record<string, unknown>>): Promise<Principal>;
  /**
   * Runs the generation; throws `GatewayError` (or `ClientAbortedError`) before the commit point,
   * never after. `stop` is the transport's: a signal it aborts when the client leaves, or its
   * controller itself, which the engine then aborts too, with a `GatewayError` reason, when it ends
   * the request (deadline, shutdown), so the generation needs no signal of its own.
   */
  generate(body: unknown, stop: ClientStop): Promise<GenerationOutput>;
  /**
   * A warm-up (Responses' `generate: false`): the body's stored state is resolved and the request
   * decoded, then kept as a response with no output under a fresh id, whose stream is returned.
   * Nothing goes upstream and nothing is billed or recorded.
   */
  warmUp(body: unknown): Promise<GenerationOutput>;
  /**
   * Remote compaction (`codec.compaction`): one generation on the route's target writes the summary,
   * billed and recorded like any other; the answer is the protocol's compacted response.
   */
  compact(body: unknown, stop: ClientStop): Promise<JSONObject>;
  /**
   * The request's usage record once it settles (its charge not yet decided: see `UsageRecord`), for
   * an access line; `undefined` when nothing began that ends in a record (a models list, a token
   * count, a stored-response read).
   */
  settledRecord(): Promise<UsageRecord> | undefined;
  /** Ends the exchange with a refusal the transport met (bad key, body, path); a no-op once settled. */
  refuse(error: GatewayError): void;
};
