import type { AccountStore } from '@signalbox/accounts';
import type { Codec, UpstreamKind } from '@signalbox/core';
import type { UpstreamClient, UpstreamClientOptions } from '@signalbox/upstream';
import type { AffinityStore } from './affinity/affinity-store';
import type { Clock } from './clock/clock';
import type { GatewayConfig } from './config/gateway-config';
import type { Limiter } from './limits/limiter';
import type { EngineObserver } from './observation/engine-observer';
import type { CredentialHealthStore } from './upstreams/health-store';
import type { UsageRecorder } from './usage/usage-record';

export type EngineOptions = {
  config: GatewayConfig;
  /** The codecs of the protocols the gateway speaks; each brings its own paths and headers (`codec.descriptor`). */
  codecs: readonly Codec[];
  /** Keys, accounts and balances. */
  store: AccountStore;
  /**
   * The upstream kinds the config's `upstreams.X.kind` may name (`azure-openai`); each owns a cloud's
   * URL, auth and framing around a protocol. Default: none, every upstream is its protocol's own API.
   */
  kinds?: readonly UpstreamKind[];
  /** Per-key rate, token and concurrency limits. Default: in process memory. */
  limiter?: Limiter;
  /** A response that could not be kept for `previous_response_id` (the answer still went out). Default: ignored. */
  onResponseStoreError?: (error: unknown) => void;
  /**
   * Fire-and-forget sink for usage records, called once per request after its ledger row and charge
   * were committed; its failures are reported to `onRecorderError`.
   */
  recordUsage?: UsageRecorder;
  /** Told about a failing ledger commit (each batch is retried with backoff, then given up) and about `recordUsage` failures. */
  onRecorderError?: (error: unknown) => void;
  /**
   * How long after the first request of a batch finishes the usage writer commits the batch, on
   * the clock's `schedule`, so every request finished meanwhile joins it. 0: at the next turn of the
   * event loop, without a timer (tests read rows right after an answer). Default `USAGE_COMMIT_DELAY_MS`.
   */
  usageCommitDelayMs?: number;
  /** The most finished requests waiting for the ledger before settling waits for a commit. Default 1 000. */
  maxQueuedUsageCommits?: number;
  /** Where upstream keys are read from (`apiKeyEnv`). Default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  /**
   * The engine's time, whole: every request's arrival, key expiry, latency and the default
   * limiter's windows (`now`); the waits between attempts and between ledger commit retries
   * (`sleep`); request deadlines, the drain's grace, the default limiter's queue waits and the
   * ledger's batch commits (`schedule`). Default `systemClock`; tests pass one they move by hand.
   */
  clock?: Clock;
  /**
   * Opens the client of each credential of each configured upstream (by the upstream's config name
   * and the credential's: `default` for `apiKeyEnv` or no key), with its base URL, headers (its key
   * among them) and timeouts. Default `createUpstreamClient` (an undici pool). Tests pass scripted clients here.
   */
  upstreamClient?: (name: string, options: UpstreamClientOptions, credential: string) => UpstreamClient;
  /**
   * Where instances share what they learn of upstream health (a credential's cooldown, a key taken
   * out, an open circuit), so a key one finds rate-limited is left alone by all at once: the Redis
   * one of `@signalbox/limiter-redis`, or `createMemoryHealthStore()` for engines of one process.
   * Default: none, this engine keeps what it learns to itself.
   */
  healthStore?: CredentialHealthStore;
  /**
   * Where the credential each conversation keeps is remembered (config `sessionAffinity`): the Redis
   * one of `@signalbox/limiter-redis`, so every instance continues a conversation on its credential.
   * Default: in this engine's memory, at most `sessionAffinity.maxConversations` of them.
   */
  affinityStore?: AffinityStore;
  /**
   * The secret compaction items are sealed under (AES-256-GCM, key derived by HKDF, bound to the
   * account). Pass one kept across restarts and shared by every instance, or compaction items written
   * before a restart (or by another instance) are refused. Default: random, for this process only.
   */
  conversationSecret?: string | Uint8Array;
  /**
   * Watches requests, upstream attempts and ledger batches for metrics and traces (several combine
   * with `combineObservers`). Default: none, and no observation work is done.
   */
  observer?: EngineObserver;
  /** Told about an observer method that threw (the request goes on). Default: ignored. */
  onObserverError?: (error: unknown) => void;
  /**
   * Secrets of the host's with no shape of their own (a database password), recognised by exact
   * value wherever the gateway scrubs text, like the upstream keys, which the engine adds itself.
   */
  secretValues?: readonly string[];
};
