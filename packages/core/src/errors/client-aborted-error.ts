const clientAbortedMarker = Symbol.for('signalbox.client-aborted-error');

/**
 * The client went away before its answer was complete: not a fault of the gateway or the upstream.
 * Recorded as `client-aborted` (499) and never rendered, since nobody is left to read it.
 */
export class ClientAbortedError extends Error {
  readonly [clientAbortedMarker] = true;

  constructor(cause?: unknown) {
    super('The client closed the connection.', { cause });
    this.name = 'ClientAbortedError';
  }

  /** True for errors from any copy of this package (`instanceof` is not). */
  static isInstance(value: unknown): value is ClientAbortedError {
    return typeof value === 'object' && value !== null && clientAbortedMarker in value;
  }
}
