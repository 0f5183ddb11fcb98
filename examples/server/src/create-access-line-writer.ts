import type { GatewayLogger } from '@signalbox/express';
import pino, { type Logger } from 'pino';

type LineStream = { write(line: string): unknown; [pino.symbols.needsMetadataGsym]?: boolean };

/**
 * Writes access lines to the output of `logger` (one of `createLogger`: pino's default level labels,
 * epoch time and message key) exactly as `logger.info` lays them out (level, time, the logger's
 * bindings, the fields, the message), with one `JSON.stringify` of the fields: pino
 * stringifies a line field by field, which costs about three times as much for an access line's
 * twenty fields. No redaction pass either: the fields are the gateway's own, every client value
 * scrubbed. The line follows the logger's level at each call. Any other level's line, and every
 * line when the output needs pino's metadata (a multistream), goes through the logger itself, redacted.
 */
export function createAccessLineWriter(logger: Logger): GatewayLogger {
  const stream = (logger as unknown as Record<symbol, LineStream>)[pino.symbols.streamSym]!;
  if (stream[pino.symbols.needsMetadataGsym]) return logger;
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? '';
  const levelValue = logger.levels.values.info!;
  return {
    info(object, message) {
      if (!logger.isLevelEnabled('info')) return;
      const fields = JSON.stringify(object);
      const inner = fields.length > 2 ? `,${fields.slice(1, -1)}` : '';
      const messagePart = message === undefined ? '' : `,"msg":${JSON.stringify(message)}`;
      stream.write(`{"level":${levelValue},"time":${Date.now()}${bindings}${inner}${messagePart}}\n`);
    },
    debug: (object, message) => logger.debug(object, message),
    warn: (object, message) => logger.warn(object, message),
    error: (object, message) => logger.error(object, message),
    isLevelEnabled: level => logger.isLevelEnabled(level),
  };
}
