import type { JSONObject } from '../json';
import type { SSEMessage } from '../sse-message';

/** What one upstream call is for: the model named at the upstream, and whether its answer streams. */
export type UpstreamCall = {
  readonly model: string;
  readonly stream: boolean;
  /** The flags of the headers the kind carries in the body (`flagsInBody`), by header name; empty when none came. */
  readonly flags?: Readonly<Record<string, readonly string[]>>;
};

/**
 * One upstream call as sent, for a credential that authorizes each call: a signature covers the
 * method, the URL, the headers it names and the body's bytes.
 */
export type SignableRequest = {
  readonly method: 'POST';
  /** The whole URL: the base URL, the kind's path, any forwarded query. */
  readonly url: string;
  /** The headers of this call besides the credential's static ones (forwarded flags, a trace context). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
};

/**
 * How one credential of an upstream proves itself: static headers carried on every call (a key
 * in the cloud's scheme), and, when it needs more, headers made for each call (a bearer token
 * refreshed ahead of its expiry, a signature over the request). The engine adds the upstream's
 * configured headers and the protocol's version header under these.
 */
export type KindCredential = {
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Headers for one call, over the static ones. May be asynchronous (a token that expired while
   * idle is fetched once for every caller); throws a `GatewayError` when no token can be had.
   */
  readonly authorize?: (request: SignableRequest) => Record<string, string> | Promise<Record<string, string>>;
  /** The credential's secret values known at start (its key), for the engine's secret recogniser. */
  readonly secrets: readonly string[];
  /** Set when the credential cannot serve as configured (its key's variable is unset). */
  readonly missing?: boolean;
};

/** One credential as configured: its name, the variable its key is in, the kind's own `auth` settings. */
export type KindCredentialSource = {
  readonly name: string;
  readonly apiKeyEnv?: string;
  readonly auth?: Readonly<Record<string, unknown>>;
};

/** What a kind is given to open one configured upstream. */
export type UpstreamKindOpening = {
  /** The upstream's config name. */
  readonly upstream: string;
  readonly baseURL: string;
  /** The protocol the upstream speaks (a codec's `protocol`). */
  readonly protocol: string;
  /** Where keys and the cloud's settings are read from. */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** The engine's clock (epoch ms): tokens are judged fresh on it. */
  now(): number;
  /** Makes a secret learned at run time (a rotated token) known to the engine's recogniser. */
  rememberSecret(value: string): void;
};

/**
 * A cloud's own count of the input tokens of a token-count body (Messages `count_tokens`): where the
 * call goes for the upstream's model, what it sends, and the field of its JSON answer with the count.
 */
export type KindTokenCount = {
  /** The call's path under the base URL for the upstream's model. */
  path(model: string): string;
  /** The call's body from the client's token-count body, its `model` already the upstream's. */
  body(body: JSONObject, model: string): JSONObject;
  /** The top-level field of the answer holding the count (`inputTokens`, `input_tokens`). */
  countField: string;
  /**
   * Error types (`errorTypeHeader`'s) that refuse the count alone, to an identity that may call the
   * model but not count: the estimate is used then, where any other refused credential is `UPSTREAM_AUTH_FAILED`.
   */
  deniedTypes?: readonly string[];
};

/**
 * One streamed answer's framing as the protocol's stream messages, for the codec's stream decoder: a
 * plain state machine fed the body's chunks wherever they are cut. `push` and `end` throw a
 * `GatewayError` for a frame the cloud sent as an exception, after returning the messages before it.
 */
export type StreamFramer = {
  push(chunk: Uint8Array): SSEMessage[];
  /** The body ended: a frame left unfinished is a failure. */
  end(): SSEMessage[];
};

/** One upstream opened by its kind: the hooks it brings; an absent one keeps the protocol's default. */
export type OpenedUpstreamKind = {
  /** The path of a call under the base URL; default the protocol's `upstreamPath`. */
  path?(call: UpstreamCall): string;
  /** The body after the codec encoded it (or the client's passed through), before its one serialisation. */
  prepareBody?(body: JSONObject, call: UpstreamCall): JSONObject;
  /**
   * Forwarded flag headers the cloud takes in the body (Bedrock's `anthropic-beta`): taken off the
   * call's headers and handed to `prepareBody` as `call.flags`.
   */
  flagsInBody?: readonly string[];
  /**
   * A framer for one streamed answer in the cloud's framing (in place of SSE framing), resolved
   * before the answer's first chunk is read; default the protocol's SSE framing.
   */
  createStreamFramer?(): StreamFramer | Promise<StreamFramer>;
  /**
   * The response header naming a refusal's type, where the cloud's error body does not (Bedrock's
   * `x-amzn-errortype`, `Type:namespace`): its part before `:` becomes the error's upstream `type`.
   */
  errorTypeHeader?: string;
  /** The cloud's token counting, where it has one: absent, a token count is the gateway's estimate. */
  countTokens?: KindTokenCount;
  openCredential(source: KindCredentialSource): KindCredential;
};

/**
 * An upstream kind (`upstreams.X.kind`): where a cloud serves a protocol, owning its URL, auth,
 * body adjustments and framing, while the protocol's codec owns the wire format. An upstream
 * without `kind` is its protocol's default kind: the vendor's own API with a key.
 */
export type UpstreamKind = {
  /** The config's `kind` value (`azure-openai`). */
  readonly name: string;
  /** The protocols it serves, by codec `protocol`. */
  readonly protocols: readonly string[];
  /** What is wrong with an upstream's `auth` settings (`undefined`: none set), one line each; empty when they are right. */
  checkAuth(auth: Readonly<Record<string, unknown>> | undefined): string[];
  open(opening: UpstreamKindOpening): OpenedUpstreamKind;
};
