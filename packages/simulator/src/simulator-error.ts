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
};

/** Builds a SimulatorError. */
export function simulatorError(status: number, message: string, extra: Partial<SimulatorError> = {}): SimulatorError {
  return { ...extra, kind: 'error', status, message };
}

/** True when a reader returned an error instead of a request. */
export function isSimulatorError(value: unknown): value is SimulatorError {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'error';
}
