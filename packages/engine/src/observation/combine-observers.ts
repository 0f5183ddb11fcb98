import type { AttemptWatcher, EngineObserver, ExchangeWatcher } from './engine-observer';

/**
 * Several observers as one (metrics and traces, say): each event goes to every observer in order;
 * an exchange's trace id is the first watcher's that has one, and an attempt's headers are merged.
 * One observer is returned as it is.
 */
export function combineObservers(...observers: readonly EngineObserver[]): EngineObserver {
  if (observers.length === 1) return observers[0]!;
  const watching = observers.filter(observer => observer.watchExchange);
  const batching = observers.filter(observer => observer.ledgerBatchCommitted);
  const healthWatching = observers.filter(observer => observer.upstreamHealthChanged);
  const affinityWatching = observers.filter(observer => observer.sessionAffinity);
  return {
    // One observer watching exchanges is handed each exchange as it is: nothing is added per request.
    ...(watching.length === 1 && { watchExchange: watching[0]!.watchExchange!.bind(watching[0]) }),
    ...(watching.length > 1 && {
      watchExchange: start => combineWatchers(watching.map(observer => observer.watchExchange!(start))),
    }),
    ...(batching.length > 0 && {
      ledgerBatchCommitted: batch => batching.forEach(observer => observer.ledgerBatchCommitted!(batch)),
    }),
    ...(healthWatching.length > 0 && {
      upstreamHealthChanged: mark => healthWatching.forEach(observer => observer.upstreamHealthChanged!(mark)),
    }),
    ...(affinityWatching.length > 0 && {
      sessionAffinity: outcome => affinityWatching.forEach(observer => observer.sessionAffinity!(outcome)),
    }),
  };
}

function combineWatchers(found: readonly (ExchangeWatcher | undefined)[]): ExchangeWatcher | undefined {
  const watchers = found.filter(watcher => watcher !== undefined);
  if (watchers.length <= 1) return watchers[0];
  const traceId = watchers.find(watcher => watcher.traceId !== undefined)?.traceId;
  return {
    ...(traceId !== undefined && { traceId }),
    attemptStarted: start => combineAttemptWatchers(watchers.map(watcher => watcher.attemptStarted?.(start))),
    responseStarted: kind => watchers.forEach(watcher => watcher.responseStarted?.(kind)),
    settled: ending => watchers.forEach(watcher => watcher.settled?.(ending)),
    recorded: record => watchers.forEach(watcher => watcher.recorded?.(record)),
  };
}

function combineAttemptWatchers(found: readonly (AttemptWatcher | undefined)[]): AttemptWatcher | undefined {
  const watchers = found.filter(watcher => watcher !== undefined);
  if (watchers.length <= 1) return watchers[0];
  const headers = Object.assign({}, ...watchers.map(watcher => watcher.headers)) as Record<string, string>;
  return {
    ...(Object.keys(headers).length > 0 && { headers }),
    ended: ending => watchers.forEach(watcher => watcher.ended?.(ending)),
  };
}
