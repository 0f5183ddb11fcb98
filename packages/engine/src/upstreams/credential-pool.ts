import type { KindCredential } from '@signalbox/core';
import type { UpstreamClient } from '@signalbox/upstream';
import type { CircuitBreaker } from './circuit-breaker';

/** Why a credential was taken out: its upstream refused its key (401, 403), or its variable is unset. */
export type DisabledReason = 'upstream-401' | 'upstream-403' | 'key-missing';

/**
 * One key of an upstream, with its own connections and what the gateway has learned of its health.
 * Only its `name` ever leaves the engine; its key is in `headers` for the upstream call alone.
 */
export type PooledCredential = {
  readonly name: string;
  readonly pool: CredentialPool;
  readonly client: UpstreamClient;
  /** What every call on it carries: the upstream's configured headers, its own, its key, the version header (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  /** The headers its kind makes for each call (a fresh token, a signature); none for a key sent as is. */
  readonly authorize: KindCredential['authorize'];
  readonly weight: number;
  /** The environment variable its key is read from, when it has one (a name, never the key). */
  readonly apiKeyEnv: string | undefined;
  /** Attempts using it now, from their start until their request settles or they fail. */
  inFlight: number;
  /** Rate-limited until then (epoch ms); 0 when not. */
  coolingUntil: number;
  /** Taken out until it is enabled again (or the engine restarts with its config). */
  disabled: DisabledReason | undefined;
  readonly breaker: CircuitBreaker;
  /** The service code of its last failed attempt, and when (epoch ms). */
  lastErrorCode: string | undefined;
  lastErrorAt: number | undefined;
  /** The running score of smooth weighted round robin, which breaks ties between equally loaded credentials. */
  current: number;
};

/** The credentials of one upstream (a pool of one for `apiKeyEnv`, or for an upstream without a key) and its own circuit. */
export type CredentialPool = {
  readonly upstream: string;
  /** The protocol the upstream speaks. */
  readonly protocol: string;
  readonly credentials: readonly PooledCredential[];
  readonly breaker: CircuitBreaker;
  /** The secret values its calls carry from the start (keys, secret configured headers), for the engine's recogniser. */
  readonly secrets: readonly string[];
};

/** The name of the one credential of an upstream configured with `apiKeyEnv`, or with no key. */
export const SINGLE_CREDENTIAL_NAME = 'default';
