import pg from 'pg';

/** The channel the `config_versions` trigger announces each new version on. */
export const CONFIG_VERSIONS_CHANNEL = 'signalbox_config_versions';

/** How long to wait before listening again once the listening connection broke. */
export const RELISTEN_DELAY_MS = 1_000;

export type ConfigVersionListening = {
  /** Connection settings of the store's pool: the listener has a connection of its own (a pooled one would be given back). */
  connection: pg.ClientConfig;
  /** The newest version now: read after every (re)connection, since announcements made while away are lost. */
  latest(): Promise<number>;
  onVersion(version: number): void;
  /** Told when the listening connection fails (it reconnects by itself). */
  onError?(error: unknown): void;
};

/**
 * Listens on `CONFIG_VERSIONS_CHANNEL` over a connection of its own: each announced version goes to
 * `onVersion` as it is committed. After the connection breaks it connects again, and on every
 * connection it reads the newest version, so nothing committed while away is missed. Returns the stop.
 */
export function listenConfigVersions(listening: ConfigVersionListening): () => void {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const again = (error: unknown) => {
    listening.onError?.(error);
    const broken = client;
    client = undefined;
    void broken?.end().catch(() => undefined);
    if (!stopped && !retry) retry = setTimeout(connect, RELISTEN_DELAY_MS);
  };
  const connect = () => {
    retry = undefined;
    if (stopped) return;
    const opened = new pg.Client(listening.connection);
    client = opened;
    opened.on('error', again);
    opened.on('end', () => client === opened && again(new Error('the config version listener\'s connection ended')));
    opened.on('notification', message => {
      const version = Number(message.payload);
      if (message.channel === CONFIG_VERSIONS_CHANNEL && Number.isSafeInteger(version)) listening.onVersion(version);
    });
    opened
      .connect()
      .then(() => opened.query(`LISTEN ${CONFIG_VERSIONS_CHANNEL}`))
      .then(() => listening.latest())
      .then(version => !stopped && listening.onVersion(version))
      .catch(error => client === opened && again(error));
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    const open = client;
    client = undefined;
    void open?.end().catch(() => undefined);
  };
}
