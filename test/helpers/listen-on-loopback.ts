import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LoopbackServer = { url: string; server: Server; close(): Promise<void> };

/**
 * Serves a request listener (an Express app) on a free port of 127.0.0.1. `close()` ends keep-alive
 * connections too, so a test file never waits for idle sockets to time out.
 */
export async function listenOnLoopback(listener: RequestListener): Promise<LoopbackServer> {
  const server = createServer(listener);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
    },
  };
}
