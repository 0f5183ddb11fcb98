import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { GatewayError } from '@signalbox/core';
import { createUpstreamClient, type UpstreamClient } from './create-upstream-client';

/** A loopback upstream that hands every request to `onRequest` once its body has arrived. */
async function startUpstream(onRequest: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => onRequest(request, response));
  });
  // A backlog above the stream count: a burst of connects is not slowed down by SYN retries.
  await new Promise<void>(resolve => server.listen({ port: 0, host: '127.0.0.1', backlog: 2_048 }, resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise(resolve => server.close(resolve));
}

/** Resolves once `count()` reaches `target`, checking on every request the upstream receives. */
function whenCount(count: () => number, target: number, onChange: (listener: () => void) => void): Promise<void> {
  return new Promise(resolve => {
    const check = () => count() >= target && resolve();
    onChange(check);
    check();
  });
}

describe('createUpstreamClient under load', () => {
  const servers: Server[] = [];
  const clients: UpstreamClient[] = [];
  const controllers: AbortController[] = [];

  afterEach(async () => {
    for (const controller of controllers.splice(0)) controller.abort();
    await Promise.all(servers.splice(0).map(stop));
    await Promise.all(clients.splice(0).map(client => client.close().catch(() => undefined)));
  });

  async function upstream(onRequest: (request: IncomingMessage, response: ServerResponse) => void) {
    const started = await startUpstream(onRequest);
    servers.push(started.server);
    return started.url;
  }

  function client(options: Parameters<typeof createUpstreamClient>[0]): UpstreamClient {
    const opened = createUpstreamClient(options);
    clients.push(opened);
    return opened;
  }

  function signal(): AbortSignal {
    const controller = new AbortController();
    controllers.push(controller);
    return controller.signal;
  }

  it('refuses request N+1 to a stalled upstream with 503 UPSTREAM_OVERLOADED after the queue timeout while another upstream answers at once', async () => {
    const stalled: ServerResponse[] = [];
    const listeners: (() => void)[] = [];
    const slowURL = await upstream((_request, response) => {
      stalled.push(response); // never answers
      listeners.forEach(listener => listener());
    });
    const fastURL = await upstream((_request, response) => response.writeHead(200).end('{"ok":true}'));
    const slow = client({ baseURL: slowURL, connections: 4, queueTimeoutMs: 150 });
    const fast = client({ baseURL: fastURL, connections: 4, queueTimeoutMs: 150 });

    for (let index = 0; index < 4; index += 1) void slow.send({ path: '/stall', body: '{}' }, signal()).catch(() => undefined);
    await whenCount(() => stalled.length, 4, listener => listeners.push(listener));

    const waitStarted = performance.now();
    let refusedAt: number | undefined;
    const refused = slow.send({ path: '/stall', body: '{}' }, signal()).catch((error: unknown) => {
      refusedAt = performance.now();
      return error;
    });
    const other = await fast.send({ path: '/answer', body: '{}' });
    expect(other.status).toBe(200);
    expect(await other.text()).toBe('{"ok":true}');
    expect(refusedAt).toBeUndefined(); // the other upstream did not wait behind the stalled one

    const failure = await refused;
    expect(GatewayError.isInstance(failure)).toBe(true);
    const overloaded = failure as GatewayError;
    expect([overloaded.code, overloaded.status, overloaded.retryable, overloaded.retryAfterMs]).toEqual([
      'UPSTREAM_OVERLOADED',
      503,
      true,
      1_000,
    ]);
    // Timers may fire up to a millisecond early after rounding; the wait is the queue timeout, not longer than needed.
    expect(refusedAt! - waitStarted).toBeGreaterThanOrEqual(149);
    expect(stalled).toHaveLength(4); // the refused request never reached the upstream
  });

  it('reports its connections in use and the requests queued behind them, and frees them when the answers end', async () => {
    const stalled: ServerResponse[] = [];
    const listeners: (() => void)[] = [];
    const url = await upstream((_request, response) => {
      stalled.push(response);
      listeners.forEach(listener => listener());
    });
    const busy = client({ baseURL: url, connections: 2, queueTimeoutMs: 60_000 });
    expect(busy.stats!()).toEqual({ connected: 0, inUse: 0, queued: 0 });

    const answers = [0, 1, 2].map(() => busy.send({ path: '/stall', body: '{}' }, signal()));
    // Aborted by afterEach should the test fail before reading them: not an unhandled rejection.
    answers.forEach(answer => void answer.catch(() => undefined));
    await whenCount(() => stalled.length, 2, listener => listeners.push(listener));
    expect(busy.stats!()).toEqual({ connected: 2, inUse: 2, queued: 1 });

    // A connection is given back once its answer's body is read to the end: the queued request then goes out.
    for (const response of stalled.splice(0)) response.writeHead(200).end('{}');
    await Promise.all(answers.slice(0, 2).map(async answer => (await answer).text()));
    await whenCount(() => stalled.length, 1, listener => listeners.push(listener));
    expect(busy.stats!()).toMatchObject({ inUse: 1, queued: 0 });
    stalled[0]!.writeHead(200).end('{}');
    await (await answers[2]!).text();
    // The body's `close` (which gives the connection back) follows its end on a later tick.
    await new Promise(resolve => setImmediate(resolve));
    expect(busy.stats!()).toMatchObject({ inUse: 0, queued: 0 });
  });

  it('sends a waiting request as soon as a busy connection frees up', async () => {
    const pending: ServerResponse[] = [];
    const listeners: (() => void)[] = [];
    const url = await upstream((request, response) => {
      if (request.url === '/second') response.writeHead(200).end('second');
      else pending.push(response);
      listeners.forEach(listener => listener());
    });
    const upstreamClient = client({ baseURL: url, connections: 1, queueTimeoutMs: 10_000 });
    const first = upstreamClient.send({ path: '/first', body: '{}' }, signal());
    await whenCount(() => pending.length, 1, listener => listeners.push(listener));
    const second = upstreamClient.send({ path: '/second', body: '{}' }, signal());
    pending[0]!.writeHead(200).end('first');
    expect(await (await first).text()).toBe('first');
    const answer = await second;
    expect([answer.status, await answer.text()]).toEqual([200, 'second']);
  });

  it('frees the connection of a stream the caller destroys, so the next request is served', async () => {
    const url = await upstream((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (request.url === '/short') response.end('data: done\n\n');
      else response.write('data: first\n\n'); // and never ends
    });
    const upstreamClient = client({ baseURL: url, connections: 1, queueTimeoutMs: 10_000 });
    const endless = await upstreamClient.send({ path: '/endless', body: '{}' }, signal());
    const next = upstreamClient.send({ path: '/short', body: '{}' }, signal());
    endless.body.destroy!();
    expect(await (await next).text()).toBe('data: done\n\n');
  });

  it('gives 1,000 concurrent streams to one upstream their first byte within 1 s of the upstream sending it, with the default settings', async () => {
    const streams = 1_000;
    const open: ServerResponse[] = [];
    const url = await upstream((_request, response) => {
      open.push(response);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${performance.now()}\n\n`); // the moment the upstream sends the first byte
    });
    const upstreamClient = client({ baseURL: url });
    const deadline = new Promise<'late'>(resolve => setTimeout(resolve, 5_000, 'late').unref());
    const lags = await Promise.all(
      Array.from({ length: streams }, async () => {
        const response = await upstreamClient.send({ path: '/stream', body: '{}' }, signal());
        // Read the first chunk without ending the iteration: the stream stays open, as a long answer would.
        const first = await Promise.race([response.body[Symbol.asyncIterator]().next(), deadline]);
        if (first === 'late' || first.done) return Infinity;
        const sentAt = Number(/data: ([\d.]+)/.exec(Buffer.from(first.value).toString())![1]);
        return performance.now() - sentAt;
      }).map(lag => Promise.race([lag, deadline.then(() => Infinity)])),
    );
    expect(open).toHaveLength(streams);
    expect(lags.filter(lag => lag > 1_000)).toEqual([]);
  });
});
