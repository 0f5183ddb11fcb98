import type { HeaderMap } from '../http/header-value';

/** What can be read of a request before any endpoint claimed it: enough to guess whose client sent it. */
export type RequestShape = { method: string; path: string; headerNames: ReadonlySet<string> };

/**
 * How clients present their key: `Authorization: Bearer <key>`, or the key as is in a header of the
 * protocol's own (with a hint shown to callers who sent `Authorization: Bearer` instead).
 */
export type CredentialScheme =
  | { kind: 'bearer' }
  | {
      kind: 'header';
      header: string;
      bearerRefusedHint: string;
      /** A query parameter the protocol's clients may send the key in instead (Gemini's `?key=`). */
      queryParameter?: string;
    };

/**
 * One rate limit an upstream's answer describes: when it resets, in ms from now, and whether the
 * answer says it is used up (its remaining count is 0).
 */
export type RateLimitReset = { inMs: number; exhausted: boolean };

/** A version header the protocol requires of every client request (and sends to every upstream). */
export type VersionHeader = {
  header: string;
  /** Other names the same header is read under. */
  aliases: readonly string[];
  /** The values accepted from clients unless the host configures others. */
  accepted: readonly string[];
  /** The value sent to an upstream that configures none. */
  upstreamDefault: string;
};

/**
 * How one protocol travels over HTTP on both sides of the gateway: its paths, how clients present
 * keys and versions, which headers carry request ids. The gateway's endpoints, authentication,
 * error envelopes and models list are all built from the descriptors of the codecs it is given, so
 * a protocol's transport facts are declared here and nowhere else.
 */
export type ProtocolDescriptor = {
  /** The name config routes use for this client interface (`interfaces: [responses]`). */
  interfaceName: string;
  /**
   * Whose API the protocol is, as the OpenTelemetry GenAI conventions name providers (`openai`,
   * `anthropic`): traces name the upstream's vendor with it.
   */
  vendor: string;
  /**
   * The generation endpoint (`POST`) for clients, relative to where the gateway is mounted. A path
   * may name the model in it (`/v1beta/models/{model}:generateContent`): the decoder gets it in
   * `DecodeOptions.endpoint`.
   */
  generationPath: string;
  /**
   * The generation endpoint that streams, for a protocol whose clients choose streaming by the path
   * they call rather than by a body field (Gemini's `:streamGenerateContent`).
   */
  streamGenerationPath?: string;
  /** The token-count endpoint (`POST`), for a codec with `decodeTokenCountRequest`. */
  tokenCountPath?: string;
  /** The remote compaction endpoint (`POST`), for a codec with `compaction`. */
  compactionPath?: string;
  /** The models list (`GET`). */
  modelsPath: string;
  /**
   * Other prefixes every client endpoint of the protocol answers under as well, by the declared
   * prefix they stand for (`{ '/v1beta/': '/v1/' }`: Gemini's stable version beside its beta).
   */
  pathPrefixAliases?: Readonly<Record<string, string>>;
  /**
   * The endpoints of stored responses, for a codec with `conversation`: one response (`GET` reads it,
   * `DELETE` deletes it) and its input items (`GET`), each with `{id}` where the response id goes.
   */
  storedResponsePaths?: { response: string; inputItems: string };
  /** The generation endpoint under an upstream's base URL (what the vendor's SDK appends). */
  upstreamPath: string;
  /**
   * The path of one upstream call under the base URL, for a protocol whose path names the model or
   * the framing (`/models/{model}:streamGenerateContent?alt=sse`); without it, `upstreamPath`.
   */
  upstreamCallPath?(call: { model: string; stream: boolean }): string;
  credential: CredentialScheme;
  version?: VersionHeader;
  /**
   * Request headers that choose the vendor account an upstream call is made for
   * (`openai-organization`): an upstream's config may set them, a client's are never forwarded.
   */
  accountHeaders?: readonly string[];
  /** Response headers that carry the gateway's request id to this protocol's clients. */
  requestIdHeaders: readonly string[];
  /** Upstream response headers that carry the upstream's request id, in order of preference. */
  upstreamRequestIdHeaders: readonly string[];
  /**
   * The rate limits an upstream of this protocol describes in its response headers (`now` in epoch
   * ms, for resets given as times): what a rate-limited credential waits for when the answer has no
   * `retry-after`.
   */
  readRateLimitResets?(headers: HeaderMap, now: number): RateLimitReset[];
  /** Request headers that say how a client speaks the protocol (beta flags, versions): safe to log. */
  diagnosticHeaders: readonly string[];
  /**
   * Request headers in which the protocol's SDKs describe themselves (language, package version,
   * retry count): harmless, shown on every access line of the protocol's requests.
   */
  clientInfoHeaders?: readonly string[];
  /**
   * Top-level request fields only this protocol's clients send, each with what it carries, in the
   * words every codec uses for it (`max_output_tokens: 'the output limit'`; see `foreignFieldHints`).
   * The gateway's other endpoints refuse a body with one of them, naming this protocol's endpoint.
   */
  signatureFields?: Readonly<Record<string, string>>;
  /**
   * What this protocol's clients send instead of another protocol's signature field, by what that
   * field carries (`'the output limit': 'the output limit is \`max_tokens\`'`): the hint of the
   * refusal. The words in use: the conversation, instructions, system text, the output limit, stop
   * sequences, structured output, reasoning, the reasoning effort, the number of answers, a stored
   * conversation.
   */
  foreignFieldHints?: Readonly<Record<string, string>>;
  /**
   * Request headers (lower-case) with comma-separated vendor flags, such as beta features, that go on
   * to an upstream of the same protocol, merged with the upstream's own configured value of the
   * same header. For an upstream of another protocol each flag becomes a warning instead.
   */
  forwardedHeaders?: readonly string[];
  /** Query parameters of the generation endpoint that go on to an upstream of the same protocol. */
  forwardedQuery?: readonly string[];
  /**
   * How strongly a request no endpoint claimed (a wrong path, a parse error) looks like one from this
   * protocol's clients, so its refusal comes in the envelope that client can read: 0 not at all,
   * 1 a weak sign (a path fragment), 2 a strong one (headers or a path only this protocol's clients
   * use). The strongest claim wins; on a tie, the codec listed first.
   */
  recognizes(request: RequestShape): 0 | 1 | 2;
};
