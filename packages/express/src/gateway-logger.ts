/** The logging surface the middlewares use; a pino logger fits it as is. */
export type GatewayLogger = {
  debug?(object: Record<string, unknown>, message?: string): void;
  info(object: Record<string, unknown>, message?: string): void;
  warn(object: Record<string, unknown>, message?: string): void;
  error(object: Record<string, unknown>, message?: string): void;
};
