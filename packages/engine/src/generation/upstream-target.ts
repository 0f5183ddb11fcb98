import type { Codec, OpenedUpstreamKind } from '@signalbox/core';
import type { CredentialPool } from '../upstreams/credential-pool';

/**
 * One configured upstream, ready to call: its codec, its kind (the protocol's default one unless
 * the config names another), its generation path, its credentials with their connections and health.
 */
export type UpstreamTarget = {
  name: string;
  codec: Codec;
  /** The config's `kind`; `undefined` for the protocol's default kind. */
  kindName: string | undefined;
  /** The kind's hooks: where a call goes, how its body and streamed answer are adjusted. */
  kind: OpenedUpstreamKind;
  /** The call's path when the kind has no `path` of its own: the protocol's `upstreamPath`. */
  path: string;
  pool: CredentialPool;
  /** Departures from the protocol its codec makes in every body sent to it (`upstreamQuirks`). */
  quirks?: readonly string[];
};
