import type { JSONObject } from '../json';

/**
 * The ways servers that speak a protocol depart from it, which an upstream's config lists by name
 * (`quirks: [omit-stream-options]`): the codec that owns the protocol knows each one and adjusts
 * every body sent to such an upstream, encoded from the IR or a client's own passed through.
 */
export type UpstreamQuirks = {
  /** Each quirk's name and what the codec then does, for config errors and documentation. */
  readonly known: Readonly<Record<string, string>>;
  /** `body` adjusted for `quirks` (names from `known`): a new object when anything changes, the given one is never changed. */
  apply(body: JSONObject, quirks: readonly string[]): JSONObject;
};
