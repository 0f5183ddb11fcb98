/** A field of another protocol's endpoints, as one endpoint refuses it. */
export type ForeignField = {
  /** The generation paths of the endpoints that take it, relative to where the gateway is mounted. */
  paths: readonly string[];
  /** What this endpoint takes instead, in its own words (``the output limit is `max_tokens` ``). */
  instead?: string;
};

/**
 * The signature fields of a gateway's other protocols, as one endpoint refuses them. The gateway
 * composes them at start from the descriptors of the codecs it mounts (`signatureFields`,
 * `foreignFieldHints`) and hands them to the endpoint's decoder in its `DecodeOptions`, so a
 * codec names no other protocol itself and never one the gateway does not serve.
 */
export type ForeignFields = {
  /** This endpoint's own generation path. */
  path: string;
  fields: ReadonlyMap<string, ForeignField>;
};
