import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs, written asynchronously (never on the request path). Credentials, cookies
 * and prompt text are redacted wherever they could appear.
 */
export function createLogger(
  options: { level?: string; destination?: DestinationStream } = {},
): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  return pino(
    {
      level,
      base: { service: 'switchyard' },
      redact: {
        paths: [
          'headers.authorization',
          'headers["x-api-key"]',
          'headers.cookie',
          'headers["set-cookie"]',
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'req.headers.cookie',
          'body',
          'prompt',
          'input',
          'messages',
          'instructions',
          'system',
        ],
        censor: '[redacted]',
      },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}
