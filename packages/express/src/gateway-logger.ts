/** The logging surface the middlewares use; a pino logger fits it as is. */
export type GatewayLogger = {
  debug?(object: Record<string, unknown>, message?: string): void;
  info(object: Record<string, unknown>, message?: string): void;
  warn(object: Record<string, unknown>, message?: string): void;
  error(object: Record<string, unknown>, message?: string): void;
  /** Whether lines of `level` are written (pino's); without it, `debug` lines are made whenever `debug` exists. */
  isLevelEnabled?(level: string): boolean;
};
