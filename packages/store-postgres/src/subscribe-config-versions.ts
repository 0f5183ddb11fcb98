import type { NotificationListener } from './listen-notifications';

/** The channel the `config_versions` trigger announces each new version on. */
export const CONFIG_VERSIONS_CHANNEL = 'signalbox_config_versions';

export type ConfigVersionWatching = {
  /** The newest version now: read every time `LISTEN` is (back) in place, since announcements made while away are lost. */
  latest(): Promise<number>;
  onVersion(version: number): void;
  /** Told when reading the newest version fails (it is read again at the next reconnection). */
  onError?(error: unknown): void;
};

/**
 * Follows `CONFIG_VERSIONS_CHANNEL` on the store's listening connection: each announced version goes
 * to `onVersion` as it is committed, and on every (re)connection the newest version is read, so
 * nothing committed while away is missed. Returns the stop.
 */
export function subscribeConfigVersions(listener: NotificationListener, watching: ConfigVersionWatching): () => void {
  let stopped = false;
  const unsubscribe = listener.subscribe({
    channel: CONFIG_VERSIONS_CHANNEL,
    onMessage(payload) {
      const version = Number(payload);
      if (Number.isSafeInteger(version)) watching.onVersion(version);
    },
    onListening() {
      watching
        .latest()
        .then(version => !stopped && watching.onVersion(version))
        .catch(error => watching.onError?.(error));
    },
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}
