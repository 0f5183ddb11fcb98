import type { Client } from 'undici';
import type { UndiciClientParts } from './load-undici-client';

/**
 * The connections to one upstream, each an undici `Client` (one HTTP/1.1 keep-alive connection,
 * reopened on demand once it closes), lent to one request at a time. Knowing which connection
 * carried which request is what lets a request decide its connection's fate: given back, it serves
 * the next request; retired, it is closed as soon as its own answer is read and never lent again.
 */
export type ConnectionPool = {
  /** A connection of no other request: the most recently given back (its socket the likeliest open), or a new one. */
  lend(): Client;
  /** Takes a lent connection back for the next request. */
  giveBack(client: Client): void;
  /** Takes a lent connection out of the pool and closes it once its request is done. */
  retire(client: Client): void;
  /** Connections with an open socket now, idle ones included. */
  connected(): number;
  close(): Promise<void>;
};

/**
 * A pool of connections to `origin`. It never queues: the connection gate in front of it lends at
 * most `connections` at once, so a request always finds an idle connection or makes one.
 */
export function createConnectionPool(Client: UndiciClientParts['Client'], origin: string, options: Client.Options): ConnectionPool {
  const clients = new Set<Client>();
  const idle: Client[] = [];
  return {
    lend() {
      const client = idle.pop();
      if (client) return client;
      const created = new Client(origin, options);
      clients.add(created);
      return created;
    },
    giveBack(client) {
      if (clients.has(client)) idle.push(client);
    },
    retire(client) {
      clients.delete(client);
      // Graceful: an answer still being read is read to its end first.
      void client.close().catch(() => undefined);
    },
    connected() {
      let open = 0;
      for (const client of clients) if (client.stats.connected) open += 1;
      return open;
    },
    async close() {
      idle.length = 0;
      const closing = [...clients].map(client => client.close());
      clients.clear();
      await Promise.all(closing);
    },
  };
}
