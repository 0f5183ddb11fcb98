/** The credential a conversation keeps, and the target it belongs to, by their config names. */
export type AffinityPin = { upstream: string; credential: string };

/**
 * Where a gateway remembers which credential each conversation keeps, by conversation key, each
 * for `idleMs` after its last request. The memory store (`createMemoryAffinityStore`) serves one
 * instance; a shared one (`@signalbox/limiter-redis`) lets every instance continue a conversation
 * on its credential. The engine asks once per request that has a conversation key.
 */
export type AffinityStore = {
  /** The conversation's pin, unless it has none or it expired. A shared store's lookup never rejects (a failure reads as none). */
  get(key: string): AffinityPin | undefined | Promise<AffinityPin | undefined>;
  /** Pins the conversation (again) and restarts its idle expiry. Never throws and never waits. */
  set(key: string, pin: AffinityPin, idleMs: number): void;
  /** Restarts the idle expiry of the conversation's pin, unchanged. Never throws and never waits. */
  touch(key: string, idleMs: number): void;
};
