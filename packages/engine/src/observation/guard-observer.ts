import type { UsageRecord } from '../usage/usage-record';
import type { AttemptEnding, AttemptStart, AttemptWatcher, EngineObserver, ExchangeWatcher, ObservedEnding } from './engine-observer';

/**
 * The host's observer with every call guarded: a throw is reported to `onError` and swallowed, so an
 * observer can never break a request or the ledger. Methods the observer lacks stay absent, so an
 * absent hook costs one property check.
 */
export function guardObserver(observer: EngineObserver, onError: (error: unknown) => void): EngineObserver {
  return {
    ...(observer.watchExchange && {
      watchExchange: start => {
        const watcher = callHook(observer, 'watchExchange', start, onError);
        return watcher && guardExchangeWatcher(watcher, onError);
      },
    }),
    ...(observer.ledgerBatchCommitted && {
      ledgerBatchCommitted: batch => void callHook(observer, 'ledgerBatchCommitted', batch, onError),
    }),
    ...(observer.upstreamHealthChanged && {
      upstreamHealthChanged: mark => void callHook(observer, 'upstreamHealthChanged', mark, onError),
    }),
    ...(observer.sessionAffinity && {
      sessionAffinity: outcome => void callHook(observer, 'sessionAffinity', outcome, onError),
    }),
  };
}

/** A guarded watcher's own fields: the host's watcher and where a throw is reported. */
type Guard<Watcher> = { readonly watcher: Watcher; readonly onError: (error: unknown) => void };
type GuardedExchangeWatcher = Guard<ExchangeWatcher> & { -readonly [Hook in keyof ExchangeWatcher]: ExchangeWatcher[Hook] };
type GuardedAttemptWatcher = Guard<AttemptWatcher> & { -readonly [Hook in keyof AttemptWatcher]: AttemptWatcher[Hook] };

// One guarded watcher per exchange (it lives as long as the exchange's stream): its hooks are the
// shared functions below, called as its methods, so guarding makes no closures per exchange.
function guardExchangeWatcher(watcher: ExchangeWatcher, onError: (error: unknown) => void): ExchangeWatcher {
  const guarded: GuardedExchangeWatcher = { watcher, onError };
  if (watcher.traceId !== undefined) guarded.traceId = watcher.traceId;
  if (watcher.attemptStarted) guarded.attemptStarted = guardedAttemptStarted;
  if (watcher.responseStarted) guarded.responseStarted = guardedResponseStarted;
  if (watcher.settled) guarded.settled = guardedSettled;
  if (watcher.recorded) guarded.recorded = guardedRecorded;
  return guarded;
}

function guardedAttemptStarted(this: GuardedExchangeWatcher, start: AttemptStart): AttemptWatcher | undefined {
  const attemptWatcher = callHook(this.watcher, 'attemptStarted', start, this.onError);
  return attemptWatcher && guardAttemptWatcher(attemptWatcher, this.onError);
}

function guardedResponseStarted(this: GuardedExchangeWatcher, kind: 'json' | 'stream'): void {
  callHook(this.watcher, 'responseStarted', kind, this.onError);
}

function guardedSettled(this: GuardedExchangeWatcher, ending: ObservedEnding): void {
  callHook(this.watcher, 'settled', ending, this.onError);
}

function guardedRecorded(this: GuardedExchangeWatcher, record: UsageRecord): void {
  callHook(this.watcher, 'recorded', record, this.onError);
}

function guardAttemptWatcher(watcher: AttemptWatcher, onError: (error: unknown) => void): AttemptWatcher {
  const guarded: GuardedAttemptWatcher = { watcher, onError };
  if (watcher.headers) guarded.headers = watcher.headers;
  if (watcher.ended) guarded.ended = guardedEnded;
  return guarded;
}

function guardedEnded(this: GuardedAttemptWatcher, ending: AttemptEnding): void {
  callHook(this.watcher, 'ended', ending, this.onError);
}

/** A hook the target has, and its one parameter. */
type Hook<Target, Name extends keyof Target> = Extract<NonNullable<Target[Name]>, (argument: never) => unknown>;

/** Calls `target[name](argument)` as its method; a throw goes to `onError` and gives `undefined`. */
function callHook<Target, Name extends keyof Target>(
  target: Target,
  name: Name,
  argument: Parameters<Hook<Target, Name>>[0],
  onError: (error: unknown) => void,
): ReturnType<Hook<Target, Name>> | undefined {
  try {
    return (target[name] as (this: Target, argument: unknown) => ReturnType<Hook<Target, Name>>).call(target, argument);
  } catch (error) {
    onError(error);
    return undefined;
  }
}
