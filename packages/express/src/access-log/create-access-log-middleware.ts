import type { SecretRecogniser } from '@signalbox/core';
import type { UsageRecord } from '@signalbox/engine';
import type { Request, RequestHandler, Response } from 'express';
import { findGatewayContext } from '../context/gateway-context';
import type { GatewayLogger } from '../gateway-logger';
import { accessLineFields, type ResponseEnding } from './access-line-fields';

export type AccessLogOptions = {
  logger: GatewayLogger;
  /** Scrubs the path, query and headers a line shows: the engine's `secrets` (its upstream keys too). Default: the shapes alone. */
  secrets?: SecretRecogniser;
  /**
   * The clock a line's latency is measured on when the engine recorded none (a models list, a 404):
   * the engine's (`createGateway` passes `engine.clock.now`), so every latency is on one time. Default `Date.now`.
   */
  now?: () => number;
};

/** The message of every access line, to find them among the other lines. */
export const ACCESS_LINE_MESSAGE = 'http request';

/**
 * One `info` line per request once its response closed: request id, trace id, key prefix, route,
 * upstream, status, outcome, service code, attempts, latency, time to first byte, stream or not,
 * tokens in and out, the method, the path and an allow-list of harmless headers, every secret in
 * them replaced (`accessLineFields`). For a request the engine served or refused, the line waits
 * for its usage record to settle (after the response, never delaying it); any other request (a
 * models list, a 404) is logged at once. Never a body or a credential: prompts and keys do not
 * reach the logs.
 *
 * @example router.use(createAccessLogMiddleware({ logger: pino() }))
 */
export function createAccessLogMiddleware(options: AccessLogOptions): RequestHandler {
  const now = options.now ?? Date.now;
  return function accessLogMiddleware(request, response, next) {
    const startedAt = now();
    // The one closure this middleware adds per request: the rest is plain calls, so logging stays cheap under load.
    response.on('close', () => {
      // Read now: by the time a record settles, a stream's writer may have ended the response.
      const ending = { latencyMs: now() - startedAt, aborted: !response.writableFinished };
      const settled = findGatewayContext(request)?.exchange?.settledRecord();
      if (settled) void writeWhenSettled(options, request, response, ending, settled);
      else writeAccessLine(options, request, response, ending, undefined);
    });
    next();
  };
}

async function writeWhenSettled(
  options: AccessLogOptions,
  request: Request,
  response: Response,
  ending: ResponseEnding,
  settled: Promise<UsageRecord>,
): Promise<void> {
  writeAccessLine(options, request, response, ending, await settled);
}

function writeAccessLine(options: AccessLogOptions, request: Request, response: Response, ending: ResponseEnding, record: UsageRecord | undefined): void {
  options.logger.info(accessLineFields(request, response, findGatewayContext(request), ending, record, options.secrets), ACCESS_LINE_MESSAGE);
}
