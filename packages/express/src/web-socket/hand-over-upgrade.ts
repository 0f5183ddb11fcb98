import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Gives an upgrade no listener takes to the server's request handler, as Node does for a server
 * without `upgrade` listeners: the host's routes answer it (the gateway's 426 on its other
 * generation paths, a 404), and the connection closes after the answer.
 */
export function handOverUpgrade(server: Server, request: IncomingMessage, socket: Duplex): void {
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket as never);
  response.once('finish', () => {
    response.detachSocket(socket as never);
    socket.end();
  });
  server.emit('request', request, response);
}
