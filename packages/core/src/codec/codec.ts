import type { GatewayError, UpstreamErrorDetails } from '../errors/gateway-error';
import type { CompactionCodec } from './compaction-codec';
import type { GenerationRequest } from '../generation/generation-request';
import type { GenerationResponse } from '../generation/generation-response';
import type { StreamEvent } from '../generation/stream-event';
import type { JSONObject } from '../json';
import type { UpstreamQuirks } from './upstream-quirks';
import type { ConversationCodec } from './conversation-codec';
import type { ForeignFields } from './foreign-fields';
import type { OpenAPIDescribeOptions, OpenAPIDescription } from './openapi-description';
import type { ProtocolDescriptor } from './protocol-descriptor';
import type { Protocol } from '../protocol';
import type { SSEMessage } from '../sse-message';
import type { Translated, TranslationWarning } from './translation-warning';
import type { WebSocketCodec } from './web-socket-codec';

/**
 * What the encoders of a client-facing answer need besides the IR: the client's own request (for
 * echo fields such as `instructions` or `tools`) and the creation time (unix seconds).
 */
export type EncodeContext = {
  request: GenerationRequest;
  createdAt: number;
};

/** What the gateway knows of a request before its body, when it changes what the body may contain. */
export type DecodeOptions = {
  /** The protocol version the client declared (Messages: the `anthropic-version` header). */
  apiVersion?: string;
  /** The signature fields of the gateway's other protocols, refused here (`refuseForeignFields`). */
  foreignFields?: ForeignFields;
  /** Where the gateway is mounted (`/llm`; empty at the root): the paths a refusal names start with it. */
  mountPath?: string;
  /** What the endpoint called says of the request, for a protocol whose paths carry it. */
  endpoint?: EndpointFacts;
};

/**
 * What a client's path and query say of its request: the model its path names (`{model}` in the
 * descriptor's paths), whether it called the streaming endpoint, and the query parameters the
 * protocol reads (Gemini's `alt`). Client text, bounded by the transport.
 */
export type EndpointFacts = {
  model?: string;
  stream?: boolean;
  query?: Readonly<Record<string, string>>;
};

/**
 * Turns one protocol's stream messages into IR events. A plain state machine: the transport feeds
 * it message by message and calls `end()` when the upstream body ends. `end()` emits an `error`
 * event when the stream stopped before its terminal event, so a cut stream never reads as complete.
 */
export interface StreamDecoder {
  push(message: SSEMessage): StreamEvent[];
  end(): StreamEvent[];
}

/**
 * Turns IR events into one protocol's stream messages. After a terminal event (`response-end` or
 * `error`) it emits nothing more; `end()` emits a failure if no terminal event was seen.
 */
export interface StreamEncoder {
  push(event: StreamEvent): SSEMessage[];
  end(): SSEMessage[];
  /**
   * A stream sent in another framing than SSE (Gemini's JSON array without `alt=sse`): its content
   * type, and each message's text on the wire. Absent: SSE frames, with keep-alive comments.
   */
  readonly framing?: StreamFraming;
}

/** How a stream that is not SSE is written: its content type and each message's text. */
export type StreamFraming = { contentType: string; format(message: SSEMessage): string };

/**
 * A same-protocol stream forwarded as the upstream wrote it, but for the model ID (the client's, not
 * the upstream's) in the frames that carry it; and a failure frame consistent with what was already
 * forwarded, for an upstream that stops without its terminal event.
 */
export interface PassthroughStream {
  forward(message: SSEMessage): SSEMessage;
  fail(error: GatewayError): SSEMessage[];
}

/** An error body rendered in a protocol's envelope, with the HTTP status to send it with. */
export type EncodedError = { status: number; body: JSONObject };

/**
 * Everything one wire protocol knows, on both sides of the gateway. Codecs never import each other:
 * a translation is always `inbound.decodeRequest` → IR → `outbound.encodeRequest`, and back.
 */
export interface Codec {
  readonly protocol: Protocol;
  /** How the protocol travels over HTTP: paths, credentials, version and request-id headers. */
  readonly descriptor: ProtocolDescriptor;
  /** Validates an untrusted client body and converts it. Throws `GatewayError` (400) naming the field. */
  decodeRequest(body: unknown, options?: DecodeOptions): Translated<GenerationRequest>;
  /**
   * Builds the upstream body; `upstreamModel` replaces the client's model ID. The IR's cache
   * breakpoints and prompt cache key go where the protocol has a field for them, else are dropped
   * silently (both are hints).
   */
  encodeRequest(request: GenerationRequest, upstreamModel: string): Translated<JSONObject>;
  /** Reads an upstream's JSON answer. Throws `GatewayError` (`UPSTREAM_FAILED`) on a malformed body. */
  decodeResponse(body: unknown): GenerationResponse;
  encodeResponse(response: GenerationResponse, context: EncodeContext): JSONObject;
  createStreamDecoder(): StreamDecoder;
  createStreamEncoder(context: EncodeContext): StreamEncoder;
  /** Reads what an upstream's error body says, whatever its shape (it may not be JSON at all). */
  decodeError(body: unknown): UpstreamErrorDetails;
  /** Renders an error in this protocol's envelope, adding the service `code` and `request_id`. */
  encodeError(error: GatewayError, requestId: string): EncodedError;
  /** Reads a token-count body (Messages `POST /v1/messages/count_tokens`); protocols without one omit it. */
  decodeTokenCountRequest?(body: unknown, options?: DecodeOptions): GenerationRequest;
  /** Renders a token count in this protocol's answer shape (with `decodeTokenCountRequest`). */
  encodeTokenCount?(inputTokens: number): JSONObject;
  /**
   * Warnings for this protocol's own fields (`providerOptions[protocol]`, the client's unknown
   * top-level fields under `unknown_fields` included) when the request goes to an upstream of another
   * protocol, where they are dropped. Fields the codec honours on the client side
   * (e.g. Chat's `stream_options`) or that are mere hints are left out. A field whose loss would change
   * the answer (a built-in tool the client relies on for results) cannot be dropped: for it this
   * throws a `GatewayError` (400) naming the field and the routes that can serve it.
   */
  describeDroppedOptions?(options: JSONObject): TranslationWarning[];
  /**
   * The client's own body with its output limit lowered to at most `tokens` (a new object; the body
   * is not changed). A same-protocol request forwards the client's body, so this is how the gateway
   * gives the upstream the output cap its balance hold covers; a smaller limit the client set stays.
   * Codecs with `createPassthroughStream` implement it.
   */
  capOutputTokens?(body: JSONObject, tokens: number): JSONObject;
  /**
   * An upstream body of this protocol with prompt-cache breakpoints placed by the gateway (a route's
   * `promptCache: "auto"`), unless it already has one of its own: then it comes back as given. The
   * given body is not changed. Protocols that mark no breakpoints (OpenAI caches by prefix) omit it.
   */
  addCacheBreakpoints?(body: JSONObject): JSONObject;
  /**
   * The client's own body with `key` as its prompt cache key, unless it has one (then it comes back
   * as given); for a same-protocol route, whose body is forwarded instead of encoded from the IR.
   * Protocols without such a key omit it.
   */
  setPromptCacheKey?(body: JSONObject, key: string): JSONObject;
  /**
   * Departures from the protocol that upstreams speaking it are known for, which an upstream's
   * `quirks` may list; protocols whose upstreams all keep to it omit it.
   */
  readonly upstreamQuirks?: UpstreamQuirks;
  /** A pass-through of this protocol's stream to a client of the same protocol. */
  createPassthroughStream?(clientModel: string): PassthroughStream;
  /**
   * Conversations the gateway keeps for this protocol's clients (Responses: `store`,
   * `previous_response_id`, `item_reference`, `GET`/`DELETE /v1/responses/{id}`); protocols whose
   * clients always send the whole conversation omit it.
   */
  readonly conversation?: ConversationCodec;
  /** Renders the models list in this protocol's shape (`GET /v1/models`). */
  encodeModelList(models: readonly ModelInfo[]): JSONObject;
  /** Remote compaction (`descriptor.compactionPath`); protocols without it omit it. */
  compaction?: CompactionCodec;
  /** Serving the generation endpoint over a WebSocket (Responses' WebSocket mode); protocols without one omit it. */
  readonly webSocket?: WebSocketCodec;
  /**
   * This protocol's endpoints for the gateway's OpenAPI document (`GET /openapi.json`), built from
   * the same zod schemas the codec validates with. A codec without it is left out of the document.
   */
  describeOpenAPI?(options: OpenAPIDescribeOptions): OpenAPIDescription;
}

/** A route as a models list shows it. */
export type ModelInfo = {
  id: string;
  /** Unix seconds. */
  createdAt: number;
  description?: string;
  protocols: readonly Protocol[];
};
