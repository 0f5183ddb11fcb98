import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `server` listening on `host:port` (port 0 picks a free one) and resolves, once it listens,
 * its URL (an IPv6 host in brackets) and the port it got; rejects with the listen error (a busy or
 * forbidden port, an address not of this machine).
 */
export async function listenHTTP(server: Server, port: number, host: string): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolve, reject) => server.listen(port, host).once('listening', resolve).once('error', reject));
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, port: bound };
}
