import pg from 'pg';

/** How long to wait before listening again once the listening connection broke. */
export const RELISTEN_DELAY_MS = 1_000;

/**
 * The timer functions as they were when the store was loaded: the reconnection is the store's own
 * I/O, not part of a host's (or a test's) clock, and must stay cancellable by `close` whatever
 * timers are installed later.
 */
const { setTimeout: startTimer, clearTimeout: stopTimer } = globalThis;

/** What one subscriber of a channel is told. */
export type ChannelSubscriber = {
  channel: string;
  onMessage(payload: string): void;
  /**
   * `LISTEN` is in place on a (new) connection: from now on every notification arrives, and what
   * was committed while nobody listened must be read again.
   */
  onListening?(): void;
  /** The connection broke or was closed: notifications may be missed until `onListening` again. */
  onLost?(): void;
};

/** One connection that listens on the channels its subscribers ask for. */
export type NotificationListener = {
  /** Adds a subscriber (listening on its channel at once if connected) and returns its removal. */
  subscribe(subscriber: ChannelSubscriber): () => void;
  /** Whether `LISTEN` is in place for `channel` now. */
  isListening(channel: string): boolean;
  close(): void;
};

/**
 * `LISTEN` over a connection of its own (a pooled one would be given back), shared by every
 * subscriber of the store. After the connection breaks each subscriber is told (`onLost`) and it
 * connects again after `RELISTEN_DELAY_MS`; once `LISTEN` is back each is told (`onListening`).
 * Channel names are the store's own constants, never client input.
 */
export function createNotificationListener(options: {
  connection: pg.ClientConfig;
  /** Told when the listening connection fails (it reconnects by itself). */
  onError?(error: unknown): void;
}): NotificationListener {
  const subscribers = new Set<ChannelSubscriber>();
  const listening = new Set<string>();
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const lose = () => {
    listening.clear();
    for (const subscriber of subscribers) subscriber.onLost?.();
  };
  const again = (error: unknown) => {
    options.onError?.(error);
    const broken = client;
    client = undefined;
    lose();
    void broken?.end().catch(() => undefined);
    if (!closed && !retry) retry = startTimer(connect, RELISTEN_DELAY_MS).unref();
  };
  /** The last `LISTEN` asked for: each waits for the one before, as a client runs one query at a time. */
  let listened: Promise<unknown> = Promise.resolve();
  const listen = (opened: pg.Client, channel: string) => {
    const next = listened.then(async () => {
      if (!listening.has(channel)) await opened.query(`LISTEN ${channel}`);
      if (client !== opened) return;
      listening.add(channel);
      for (const subscriber of subscribers) if (subscriber.channel === channel) subscriber.onListening?.();
    });
    listened = next.catch(() => undefined);
    return next;
  };
  const connect = () => {
    retry = undefined;
    if (closed) return;
    const opened = new pg.Client(options.connection);
    client = opened;
    opened.on('error', error => client === opened && again(error));
    opened.on('end', () => client === opened && again(new Error('the notification listener\'s connection ended')));
    opened.on('notification', message => {
      for (const subscriber of subscribers) if (subscriber.channel === message.channel) subscriber.onMessage(message.payload ?? '');
    });
    opened
      .connect()
      .then(async () => {
        for (const channel of new Set([...subscribers].map(subscriber => subscriber.channel))) await listen(opened, channel);
      })
      .catch(error => client === opened && again(error));
  };
  connect();
  return {
    subscribe(subscriber) {
      subscribers.add(subscriber);
      // A query made while the connection is still opening waits for it (`pg` queues it).
      const opened = client;
      if (opened) void listen(opened, subscriber.channel).catch(error => client === opened && again(error));
      return () => subscribers.delete(subscriber);
    },
    isListening(channel) {
      return listening.has(channel);
    },
    close() {
      closed = true;
      stopTimer(retry);
      const open = client;
      client = undefined;
      lose();
      void open?.end().catch(() => undefined);
    },
  };
}
