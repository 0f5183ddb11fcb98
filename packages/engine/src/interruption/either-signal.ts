/**
 * A signal that aborts as soon as either of two does, with that one's reason: what
 * `AbortSignal.any([first, second])` gives, for a tenth of its cost (it keeps weak references and a
 * finalisation registry per signal, several microseconds a request). Meant for signals that live
 * no longer than one request, since it listens on both until one aborts.
 */
export function eitherSignal(first: AbortSignal, second: AbortSignal): AbortSignal {
  if (first.aborted) return first;
  if (second.aborted) return second;
  const controller = new AbortController();
  const abort = function abortWith(this: AbortSignal): void {
    controller.abort(this.reason);
  };
  first.addEventListener('abort', abort, { once: true });
  second.addEventListener('abort', abort, { once: true });
  return controller.signal;
}
