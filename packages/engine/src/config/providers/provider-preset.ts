/** The names a cloud preset builds its base URL from: an Azure resource, an AWS or Google Cloud region, a Google Cloud project. */
export type CloudPlace = {
  resource?: string | undefined;
  region?: string | undefined;
  project?: string | undefined;
};

/** A key of `CloudPlace`: an upstream config key of the same name. */
export type CloudPlaceKey = keyof CloudPlace;

/**
 * What naming a provider (`upstreams.X.provider`) fills in for an upstream: every field is a
 * default the upstream's own keys override. Presets are data, one small module per family.
 */
export type ProviderPreset = {
  /** The upstream kind a cloud provider needs (its own URL scheme and signing); absent for providers that speak a protocol over HTTP with a key. */
  kind?: string;
  /** The wire protocol the provider speaks: a codec's `protocol`. */
  protocol: string;
  /**
   * The base URL the provider's OpenAI- or Anthropic-style SDK takes; a cloud's is made from the
   * upstream's `place` keys, each of them given (checked to be a plain name) unless `baseURL` is.
   */
  baseURL: string | { place: readonly CloudPlaceKey[]; make(place: Required<CloudPlace>): string };
  /** The environment variable its key is conventionally in; absent for local servers that need none. */
  apiKeyEnv?: string;
  /**
   * The kind's `auth` settings for an upstream that names no key of its own (`apiKeyEnv`,
   * `credentials`), given its own `auth` and place: Bedrock signs with SigV4 for the upstream's region.
   */
  auth?(own: Readonly<Record<string, unknown>> | undefined, place: CloudPlace): Record<string, unknown> | undefined;
  /** Headers every call carries. */
  headers?: Readonly<Record<string, string>>;
  /** Departures from the protocol the upstream's codec must make for it (`omit-stream-options`, `max-tokens`). */
  quirks?: readonly string[];
  /** The vendor page the base URL, key and quirks come from. */
  documentation: string;
};
