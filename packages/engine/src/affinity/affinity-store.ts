/** The credential a conversation keeps, and the target it belongs to, by their config names. */
export type AffinityPin = { upstream: string; credential: string };

/**
 * Where a gateway remembers which credential each conversation keeps, by conversation key, each
 * for `idleMs` after its last request. The memory store (`createMemoryAffinityStore`) serves one
 * instance; a shared one (`@signalbox/limiter-redis`) lets every instance continue a conversation
 * on its credential. The engine asks once per request that has a conversation key, and writes only
 * when the conversation changes credential: the lookup itself keeps a pin alive.
 */
export type AffinityStore = {
  /**
   * The conversation's pin, unless it has none or it expired, its idle expiry restarted at `idleMs`
   * (one round trip for a shared store). A shared store's lookup never rejects (a failure reads as none).
   */
  get(key: string, idleMs: number): AffinityPin | undefined | Promise<AffinityPin | undefined>;
  /** Pins the conversation (again) and restarts its idle expiry. Never throws and never waits. */
  set(key: string, pin: AffinityPin, idleMs: number): void;
};
