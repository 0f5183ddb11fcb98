import type { DisabledReason } from './credential-pool';

/**
 * One thing an instance learned about an upstream's health, as instances tell each other: a
 * credential cooling down until a time, a circuit opened until a time (a credential's, or with no
 * `credential` the upstream's own) or closed by a probe, a credential taken out or enabled again
 * (by an operator: its upstream's circuit closes too).
 * Credentials are named by their config names only; times are epoch ms.
 */
export type HealthMark =
  | { kind: 'cooldown'; upstream: string; credential: string; until: number }
  | { kind: 'circuit-open'; upstream: string; credential?: string; until: number }
  | { kind: 'circuit-closed'; upstream: string; credential?: string }
  | { kind: 'disabled'; upstream: string; credential: string; reason: DisabledReason }
  | { kind: 'enabled'; upstream: string; credential: string };

/**
 * Where gateway instances share what they learn of upstream health, so that a key one instance
 * finds rate-limited or revoked is left alone by all of them at once. Each engine joins once; the
 * memory store (`createMemoryHealthStore`) joins engines of one process, a Redis one (in
 * `@signalbox/limiter-redis`) every instance sharing the Redis.
 */
export type CredentialHealthStore = {
  /** Joins: `listener` hears every mark the other members share (never its own). */
  join(listener: (mark: HealthMark) => void): HealthChannel;
};

/** One engine's membership of a `CredentialHealthStore`. */
export type HealthChannel = {
  /** Tells every other member. Never throws and never waits: a failure to tell is the store's to report. */
  share(mark: HealthMark): void;
  /**
   * The cooldowns and open circuits in force (some may have ended by the time they are read): what
   * a joining member catches up with. Never rejects: what cannot be read is the store's to report.
   */
  marks(): Promise<readonly HealthMark[]>;
  /** Stops listening. */
  leave(): Promise<void>;
};

/** The key of a mark's subject: its upstream and credential (the upstream's own circuit has none). */
export function markSubject(mark: HealthMark): string {
  return `${encodeURIComponent(mark.upstream)}/${encodeURIComponent(mark.credential ?? '')}`;
}
