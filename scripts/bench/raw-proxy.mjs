// The floor: a raw Node pass-through proxy. No parsing, no auth, no translation: request bytes in,
// upstream bytes out, over a keep-alive agent. Proxies to UPSTREAM_URL (an origin such as
// http://127.0.0.1:4010) when set, else to a simulator of its own. Prints its URL.
import { Agent, createServer, request } from 'node:http';
import { createSimulator } from '../../packages/simulator/dist/index.js';

async function upstreamAddress() {
  if (process.env.UPSTREAM_URL) {
    const { hostname, port } = new URL(process.env.UPSTREAM_URL);
    return { host: hostname, port: Number(port) };
  }
  const { port } = await createSimulator().listen(0, '127.0.0.1');
  return { host: '127.0.0.1', port };
}

const { host, port: upstreamPort } = await upstreamAddress();
const agent = new Agent({ keepAlive: true, maxSockets: Number(process.env.MAX_SOCKETS ?? 1024) });
const server = createServer((incoming, outgoing) => {
  const upstream = request(
    { host, port: upstreamPort, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
    answer => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', () => outgoing.destroy());
  // A client gone mid-answer ends the upstream call too, as a gateway does.
  outgoing.on('close', () => outgoing.writableFinished || upstream.destroy());
  incoming.pipe(upstream);
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
