import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StatsCounter } from './simulator-stats';

/**
 * One request/response pair as the simulator sees it: counted in the stats, and with waits that
 * end early when the client goes away, so generation stops and no timer outlives the socket.
 */
export type Exchange = {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** True once the response closed, whether finished, cut by a scenario or abandoned by the client. */
  isClosed(): boolean;
  /** Marks a close the simulator caused on purpose (`[[sim:cut]]`), so it is not counted as an abort. */
  markEndedByServer(): void;
  /** Sleeps `ms`, or less when the response closes first. */
  wait(ms: number): Promise<void>;
  /** Resolves on the response's next 'drain', or when it closes. */
  drain(): Promise<void>;
};

/** Starts counting a request and watches its response for the end. */
export function trackExchange(
  request: IncomingMessage,
  response: ServerResponse,
  stats: StatsCounter,
  pathKey: string,
): Exchange {
  const counters = stats.current;
  counters.requests += 1;
  counters.active += 1;
  counters.byPath[pathKey] = (counters.byPath[pathKey] ?? 0) + 1;
  let closed = false;
  let endedByServer = false;
  let wake: (() => void) | undefined;
  response.once('close', () => {
    closed = true;
    counters.active -= 1;
    if (!response.writableFinished && !endedByServer) counters.aborted += 1;
    wake?.();
  });
  return {
    request,
    response,
    isClosed: () => closed,
    markEndedByServer: () => {
      endedByServer = true;
    },
    wait: ms => (closed ? Promise.resolve() : new Promise<void>(resolve => (wake = sleep(ms, resolve)))),
    drain: () => (closed ? Promise.resolve() : new Promise<void>(resolve => (wake = onceDrained(response, resolve)))),
  };
}

function sleep(ms: number, resolve: () => void): () => void {
  const timer = setTimeout(resolve, ms);
  return () => {
    clearTimeout(timer);
    resolve();
  };
}

function onceDrained(response: ServerResponse, resolve: () => void): () => void {
  const finish = () => {
    response.off('drain', finish);
    resolve();
  };
  response.on('drain', finish);
  return finish;
}
