// The floor: a raw Node pass-through proxy in front of its own simulator. No parsing, no auth, no
// translation: request bytes in, upstream bytes out, over a keep-alive agent. Prints its URL.
import { Agent, createServer, request } from 'node:http';
import { createSimulator } from '../../packages/simulator/dist/index.js';

const simulator = createSimulator();
const { port: upstreamPort } = await simulator.listen(0, '127.0.0.1');
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const server = createServer((incoming, outgoing) => {
  const upstream = request(
    { host: '127.0.0.1', port: upstreamPort, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
    answer => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', () => outgoing.destroy());
  incoming.pipe(upstream);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
