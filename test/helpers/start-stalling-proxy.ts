import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP relay on 127.0.0.1 in front of a server, that can stop answering without closing anything. */
export type StallingProxy = {
  port: number;
  /**
   * From now on nothing passes either way and new connections are accepted but never answered: a
   * server that hangs (as under SIGSTOP) or a network partition, not one that refuses. Bytes sent
   * meanwhile wait in the sockets' buffers, as they would in the kernel of a stopped host.
   */
  stall(): void;
  /** Lets everything through again: connects the clients that waited and forwards the held bytes first. */
  resume(): void;
  close(): Promise<void>;
};

/**
 * Relays every connection to `targetPort` on 127.0.0.1: each accepted client gets its own
 * connection to the target. While stalled, what either side sends is held (in order) instead of
 * forwarded, and a new client is not connected to the target until `resume`.
 */
export async function startStallingProxy(targetPort: number): Promise<StallingProxy> {
  let stalled = false;
  const sockets = new Set<Socket>();
  /** Each pair's pending work for `resume`: connect a waiting client, forward the held bytes. */
  const onResume = new Set<() => void>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    // A peer that goes away ends the pair; the error itself is of no interest to the relay.
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  };
  /** Forwards `from`'s bytes to `to()` when it exists and nothing is stalled, else holds them. */
  const forward = (from: Socket, to: () => Socket | undefined) => {
    const held: Buffer[] = [];
    const flush = () => {
      const destination = to();
      if (destination) for (const chunk of held.splice(0)) destination.write(chunk);
    };
    from.on('data', (chunk: Buffer) => {
      held.push(chunk);
      if (!stalled) flush();
    });
    onResume.add(flush);
    from.on('close', () => onResume.delete(flush));
  };
  const server = createServer(client => {
    track(client);
    let target: Socket | undefined;
    const open = () => {
      if (target || client.destroyed) return;
      target = connect(targetPort, '127.0.0.1');
      track(target);
      forward(target, () => client);
      target.on('close', () => client.destroy());
      client.on('close', () => target?.destroy());
    };
    // Registered before the client's own forwarder, so that on resume the target exists when its held bytes go.
    onResume.add(open);
    client.on('close', () => onResume.delete(open));
    forward(client, () => target);
    if (!stalled) open();
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stall() {
      stalled = true;
    },
    resume() {
      stalled = false;
      for (const work of [...onResume]) work();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
