import type { AttemptWatcher, EngineObserver, ExchangeWatcher } from './engine-observer';

/**
 * The host's observer with every call guarded: a throw is reported to `onError` and swallowed, so an
 * observer can never break a request or the ledger. Methods the observer lacks stay absent, so an
 * absent hook costs one property check.
 */
export function guardObserver(observer: EngineObserver, onError: (error: unknown) => void): EngineObserver {
  return {
    ...(observer.watchExchange && {
      watchExchange: start => {
        const watcher = attempt(() => observer.watchExchange!(start), onError);
        return watcher && guardExchangeWatcher(watcher, onError);
      },
    }),
    ...(observer.ledgerBatchCommitted && {
      ledgerBatchCommitted: batch => void attempt(() => observer.ledgerBatchCommitted!(batch), onError),
    }),
    ...(observer.upstreamHealthChanged && {
      upstreamHealthChanged: mark => void attempt(() => observer.upstreamHealthChanged!(mark), onError),
    }),
    ...(observer.sessionAffinity && {
      sessionAffinity: outcome => void attempt(() => observer.sessionAffinity!(outcome), onError),
    }),
  };
}

function guardExchangeWatcher(watcher: ExchangeWatcher, onError: (error: unknown) => void): ExchangeWatcher {
  return {
    ...(watcher.traceId !== undefined && { traceId: watcher.traceId }),
    ...(watcher.attemptStarted && {
      attemptStarted: start => {
        const attemptWatcher = attempt(() => watcher.attemptStarted!(start), onError);
        return attemptWatcher && guardAttemptWatcher(attemptWatcher, onError);
      },
    }),
    ...(watcher.responseStarted && { responseStarted: kind => void attempt(() => watcher.responseStarted!(kind), onError) }),
    ...(watcher.settled && { settled: ending => void attempt(() => watcher.settled!(ending), onError) }),
    ...(watcher.recorded && { recorded: record => void attempt(() => watcher.recorded!(record), onError) }),
  };
}

function guardAttemptWatcher(watcher: AttemptWatcher, onError: (error: unknown) => void): AttemptWatcher {
  return {
    ...(watcher.headers && { headers: watcher.headers }),
    ...(watcher.ended && { ended: ending => void attempt(() => watcher.ended!(ending), onError) }),
  };
}

function attempt<Value>(call: () => Value, onError: (error: unknown) => void): Value | undefined {
  try {
    return call();
  } catch (error) {
    onError(error);
    return undefined;
  }
}
