import type { Codec } from '@signalbox/core';
import type { CredentialPool } from '../upstreams/credential-pool';

/** One configured upstream, ready to call: its codec, its generation path, its credentials with their connections and health. */
export type UpstreamTarget = {
  name: string;
  codec: Codec;
  path: string;
  pool: CredentialPool;
  /** Departures from the protocol its codec makes in every body sent to it (`upstreamQuirks`). */
  quirks?: readonly string[];
};
