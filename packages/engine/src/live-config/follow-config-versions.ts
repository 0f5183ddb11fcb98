import type { ConfigDocument, ConfigVersionStore } from '@signalbox/accounts';
import type { Clock } from '../clock/clock';
import type { GatewayConfig } from '../config/gateway-config';

/** How often a store that cannot announce versions (SQLite, memory) is asked for the newest: one indexed read. */
export const CONFIG_POLL_MS = 1_000;

export type ConfigFollowing = {
  versions: ConfigVersionStore;
  /** The version the engine runs now. */
  applied: number;
  /** A stored document as the config the engine takes (throws `ConfigError`). */
  toConfig(document: ConfigDocument): GatewayConfig;
  apply(config: GatewayConfig): void;
  clock: Clock;
  pollMs?: number;
  /** Told each version once the engine runs it. */
  onApplied?(version: number): void;
  /** Told a version this instance could not apply (it keeps the one it has), or a failed read (the next one tries again). */
  onError?(error: unknown, version?: number): void;
};

/** A running follower: `heard` tells it of a version at once (one this instance wrote), resolving once it ran; `stop` ends it. */
export type ConfigFollower = { heard(version: number): Promise<void>; stop(): void };

/**
 * Keeps an engine on the newest config version: told of each one by the store as it is committed
 * (PostgreSQL's `NOTIFY`), or asking every `pollMs`. Versions are applied one at a time, always the
 * newest heard of (one superseded meanwhile is skipped).
 */
export function followConfigVersions(following: ConfigFollowing): ConfigFollower {
  const { versions, clock } = following;
  let applied = following.applied;
  let wanted = applied;
  let running: Promise<void> | undefined;
  let stopped = false;
  const catchUp = async () => {
    while (wanted > applied && !stopped) {
      const target = wanted;
      if (!(await applyVersion(following, target))) break;
      applied = target;
    }
  };
  const heard = async (version: number) => {
    if (version > wanted) wanted = version;
    // One catch-up at a time; a version heard meanwhile is taken by the loop, or by the one after.
    while (running) await running;
    if (wanted <= applied) return;
    running = catchUp().finally(() => (running = undefined));
    await running;
  };
  if (versions.watchConfigVersions) {
    const unwatch = versions.watchConfigVersions(version => void heard(version));
    return {
      heard,
      stop() {
        stopped = true;
        unwatch();
      },
    };
  }
  const pollMs = following.pollMs ?? CONFIG_POLL_MS;
  let cancel = clock.schedule(function poll() {
    void versions
      .latestConfigVersion()
      .then(heard, error => following.onError?.(error))
      .finally(() => {
        if (!stopped) cancel = clock.schedule(poll, pollMs);
      });
  }, pollMs);
  return {
    heard,
    stop() {
      stopped = true;
      cancel();
    },
  };
}

/**
 * Reads and applies one version: `false` when it could not be read (asked again on the next poll or
 * announcement); a version read but refused here is reported and passed over, never retried.
 */
async function applyVersion(following: ConfigFollowing, version: number): Promise<boolean> {
  let found;
  try {
    found = await following.versions.getConfigVersion(version);
  } catch (error) {
    following.onError?.(error, version);
    return false;
  }
  if (!found) return true;
  try {
    following.apply(following.toConfig(found.document));
    following.onApplied?.(version);
  } catch (error) {
    following.onError?.(error, version);
  }
  return true;
}
