import type { GatewayLogger } from '@signalbox/express';
import pino, { type DestinationStream, type Logger } from 'pino';
import { createAccessLineWriter } from './create-access-line-writer';

/** The loggers `createLogger` made, whose redaction paths are known to match no access line field. */
const madeHere = new WeakSet<GatewayLogger>();

/** Log lines gathered for one write: under load a write per line costs more than the line itself. */
const BATCH_BYTES = 4096;
/** The longest a line waits in a batch that is not full, so a quiet server's logs still appear at once to a reader. */
const BATCH_WAIT_MS = 200;

/**
 * Structured JSON logs, written asynchronously (never on the request path) in batches of up to
 * 4 KiB or 200 ms, whichever comes first, a warning or an error at once; pino writes what is left
 * synchronously when the process exits. Credentials, cookies and prompt text are redacted wherever they could appear.
 */
export function createLogger(
  options: { level?: string; destination?: DestinationStream } = {},
): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const batched = options.destination ? undefined : createBatchedStandardOutput();
  const logger = pino(
    {
      level,
      // A warning or an error is written at once, with whatever waits before it: an operator (or a
      // script reading the output as the server starts) sees it when it happens.
      ...(batched && {
        hooks: {
          logMethod(this: Logger, args: Parameters<Logger['info']>, method: Logger['info'], levelValue: number) {
            method.apply(this, args);
            if (levelValue >= pino.levels.values.warn!) batched.flush();
          },
        },
      }),
      base: { service: 'signalbox' },
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
    options.destination ?? batched!,
  );
  madeHere.add(logger);
  return logger;
}

/**
 * The logger access lines go to: for one of `createLogger`, a writer of the same lines to the same
 * output without pino's field-by-field serialisation and redaction pass, which no access line needs
 * (its fields are ids, counts, labels, scrubbed text and allow-listed headers, none of the redacted
 * paths) and which cost more than the rest of the line; any other logger as it is, its own
 * redaction kept.
 */
export function accessLoggerOf(logger: GatewayLogger): GatewayLogger {
  return madeHere.has(logger) ? createAccessLineWriter(logger as Logger) : logger;
}

function createBatchedStandardOutput(): ReturnType<typeof pino.destination> {
  const destination = pino.destination({ sync: false, minLength: BATCH_BYTES });
  const timer = setInterval(() => {
    try {
      destination.flush();
    } catch {
      // Ended (the process is exiting): nothing more to write.
      clearInterval(timer);
    }
  }, BATCH_WAIT_MS);
  timer.unref();
  destination.once('close', () => clearInterval(timer));
  return destination;
}
