import type { GatewayError } from '@signalbox/core';
import type { Engine, Exchange } from '@signalbox/engine';
import { ACCESS_LINE_MESSAGE } from '../access-log/create-access-log-middleware';
import { accessLineFields } from '../access-log/access-line-fields';
import { failureLogFields, failureLogMessage } from '../errors/failure-log-fields';
import type { GatewayLogger } from '../gateway-logger';
import type { Handshake } from './serve-web-socket-connection';

/**
 * The lines a WebSocket connection's responses leave: one access line per response once its record
 * settles (the handshake's method, path and harmless headers; the record's status, else 101 for a
 * warm-up) to `accessLogger`, and a 5xx sent in an error frame at `error` to `logger`, as on HTTP.
 */
export function logWebSocketResponses(engine: Engine, logger: GatewayLogger | undefined, accessLogger = logger) {
  return {
    onResponse(exchange: Exchange, handshake: Handshake, ending: { latencyMs: number; aborted: boolean }): void {
      if (!accessLogger) return;
      const request = { method: 'GET', originalUrl: handshake.url ?? '', headers: handshake.headers };
      const context = { requestId: exchange.requestId, startedAt: exchange.startedAt, codec: exchange.codec, exchange };
      const write = (record: Awaited<ReturnType<Exchange['settledRecord']>>) =>
        accessLogger.info(accessLineFields(request, { headersSent: true, statusCode: 101 }, context, ending, record, engine.secrets), ACCESS_LINE_MESSAGE);
      const settled = exchange.settledRecord();
      if (settled) void settled.then(write);
      else write(undefined);
    },
    onRefusal(failure: GatewayError, requestId: string): void {
      if (failure.status >= 500) logger?.error({ requestId, ...failureLogFields(failure) }, failureLogMessage(failure));
    },
  };
}
