import type { Codec, ForeignFields } from '@signalbox/core';
import type { AccountStore, KeyLimits } from '@signalbox/accounts';
import type { ClientAuthPolicy, KeyHeaderElsewhere } from '../auth/authenticate';
import type { Clock } from '../clock/clock';
import type { ConversationDependencies } from '../conversations/conversation-dependencies';
import type { CompactionSealer } from '../conversations/compaction/create-compaction-sealer';
import type { Interruptions } from '../interruption/create-interruptions';
import type { Limiter } from '../limits/limiter';
import type { EngineObserver } from '../observation/engine-observer';
import type { ReasoningIssuers } from '../reasoning/create-reasoning-issuers';
import type { Routing } from '../routing/routing';
import type { UpstreamHealth } from '../upstreams/create-upstream-health';
import type { Settlement } from './settle-exchange';
import type { SessionAffinity } from '../affinity/session-affinity';

/** What every exchange of one engine shares. */
export type ExchangeDependencies = {
  /** The routes and upstreams: a request reads `current` once when it is routed and keeps it to its end. */
  routing: { readonly current: Routing };
  /** Where conversations' credentials are pinned, and for how long. */
  affinity: SessionAffinity;
  /** Which credential of an upstream each attempt uses, and what its answers teach. */
  health: UpstreamHealth;
  store: AccountStore;
  limiter: Limiter;
  defaultLimits: KeyLimits;
  authPolicy(codec: Codec): ClientAuthPolicy;
  keyHeadersElsewhere: readonly KeyHeaderElsewhere[];
  /** The other protocols' fields, as the endpoint of `codec` refuses them (the protocol registry's). */
  foreignFieldsOf(codec: Codec): ForeignFields;
  /** The config's `forwardClientHeaders`: client headers passed on to upstreams of the same protocol. */
  forwardClientHeaders: readonly string[];
  settlement: Settlement;
  /** The engine's clock: key expiry, admission, the waits between attempts. */
  clock: Clock;
  /** Generations in flight: ended by the engine's drain at shutdown or by their route's deadline. */
  interruptions: Interruptions;
  /** Stored conversations: the store, its retention, and where a failed save is reported. */
  conversations: ConversationDependencies;
  /** Seals and opens the summaries of compaction items, per account. */
  compactionSealer: CompactionSealer;
  /** The host's observer (guarded: it cannot throw), when it watches exchanges. */
  observer?: EngineObserver;
  /** Which upstream issued the reasoning proofs of the answers this engine passed on. */
  issuers: ReasoningIssuers;
};
