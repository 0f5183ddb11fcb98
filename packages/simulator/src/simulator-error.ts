/**
 * An error the simulator answers before any output, in no protocol's envelope yet. Each protocol
 * turns it into its own envelope; `type` and `code` override the status-derived defaults.
 */
export type SimulatorError = {
  kind: 'error';
  status: number;
  message: string;
  param?: string | null;
  code?: string | null;
  type?: string;
  /** Seconds the caller should wait before retrying (a 429's refill time); Google's envelope carries it as `RetryInfo`. */
  retryDelaySeconds?: number;
};

/** Builds a SimulatorError. */
export function simulatorError(status: number, message: string, extra: Partial<SimulatorError> = {}): SimulatorError {
  return { ...extra, kind: 'error', status, message };
}

/** True when a reader returned an error instead of a request. */
export function isSimulatorError(value: unknown): value is SimulatorError {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'error';
}
