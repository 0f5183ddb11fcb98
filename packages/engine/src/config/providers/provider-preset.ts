/**
 * What naming a provider (`upstreams.X.provider`) fills in for an upstream: every field is a
 * default the upstream's own keys override. Presets are data, one small module per family.
 */
export type ProviderPreset = {
  /**
   * The upstream kind a cloud provider needs (its own URL scheme and signing); absent for providers
   * that speak a protocol over HTTP with a key, which is every preset so far.
   */
  kind?: string;
  /** The wire protocol the provider speaks: a codec's `protocol`. */
  protocol: string;
  /** The base URL the provider's OpenAI- or Anthropic-style SDK takes. */
  baseURL: string;
  /** The environment variable its key is conventionally in; absent for local servers that need none. */
  apiKeyEnv?: string;
  /** Headers every call carries. */
  headers?: Readonly<Record<string, string>>;
  /** Departures from the protocol the upstream's codec must make for it (`omit-stream-options`, `max-tokens`). */
  quirks?: readonly string[];
  /** The vendor page the base URL, key and quirks come from. */
  documentation: string;
};
