import type { GenerationRequest } from '../generation/generation-request';
import type { Usage } from '../generation/usage';
import type { JSONObject } from '../json';
import type { SSEMessage } from '../sse-message';
import type { Translated } from './translation-warning';

/** A compaction request read from the wire: the conversation to summarise and what stays verbatim. */
export type CompactionRequest = {
  /** The conversation as a generation request (the client's model ID, its instructions and items). */
  conversation: GenerationRequest;
  /** Items the compacted output repeats as they were sent (Responses: every user message), in order. */
  keptItems: JSONObject[];
};

/** A finished compaction: the items kept, then one opaque compaction item, and what the summary cost. */
export type Compaction = {
  createdAt: number;
  /** The client's model ID. */
  model: string;
  keptItems: readonly JSONObject[];
  item: { id: string; encryptedContent: string };
  usage: Usage;
};

/** What a generation body says about compaction once its compaction items are opened. */
export type OpenedCompactions = {
  /** The body with every compaction item replaced by the summary it carries (the same object when it had none). */
  body: unknown;
  /** The body's input ended with a compaction trigger (now removed): the answer is a compaction of the rest. */
  triggered: boolean;
};

/**
 * Remote compaction for a protocol that has it (Responses: `POST /v1/responses/compact` and the
 * `compaction` / `compaction_trigger` input items). The gateway writes the summary with the route's
 * model and seals it itself, so the codec only reads and writes the wire shapes.
 */
export interface CompactionCodec {
  /** Validates a compaction body. Throws `GatewayError` (400) naming the field. */
  decodeCompactionRequest(body: unknown): Translated<CompactionRequest>;
  /** The compaction endpoint's answer. */
  encodeCompactedResponse(compaction: Compaction): JSONObject;
  /**
   * Replaces each compaction item of a generation body with a message carrying the summary that
   * `open` reads from its sealed content; `open` throws (a 400 naming the item) for one that does
   * not open. Any other body is returned as it is.
   */
  openCompactionItems(body: unknown, open: (encryptedContent: string, path: readonly PropertyKey[]) => string): OpenedCompactions;
  /** A generation's answer when a compaction trigger ended its input: the compaction item as its output. */
  encodeCompactionTurn(compaction: Compaction, request: GenerationRequest): JSONObject;
  /** The same answer as the protocol's stream messages, from the first to the terminal one. */
  encodeCompactionTurnStream(compaction: Compaction, request: GenerationRequest): SSEMessage[];
}
