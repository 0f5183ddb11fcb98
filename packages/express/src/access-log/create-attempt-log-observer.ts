import { GatewayError } from '@signalbox/core';
import type { AttemptStart, AttemptWatcher, EngineObserver } from '@signalbox/engine';
import { causeLogFields, upstreamLogFields } from '../errors/failure-log-fields';
import type { GatewayLogger } from '../gateway-logger';

/** The message of every failed-attempt line. */
export const ATTEMPT_FAILED_MESSAGE = 'upstream attempt failed';

/**
 * At `debug`: one line per upstream attempt that failed before its answer began, retried, failed
 * over or not: which upstream and model, the failure's service code and what the upstream said
 * (its status, error type and code, a digest of its message, never its words), and whether
 * another attempt followed. The access line counts the attempts and names the last upstream only;
 * these lines say what happened to the others. A client that left ends its attempt without a line.
 *
 * @example createGateway({ …, observer: createAttemptLogObserver(logger) })
 */
export function createAttemptLogObserver(logger: GatewayLogger): EngineObserver {
  return {
    watchExchange: start => ({
      attemptStarted: attempt => watchAttempt(logger, start.requestId, attempt),
    }),
  };
}

function watchAttempt(logger: GatewayLogger, requestId: string, attempt: AttemptStart): AttemptWatcher {
  return {
    ended(ending) {
      if (ending.kind !== 'failed' || !GatewayError.isInstance(ending.error)) return;
      const { error } = ending;
      logger.debug?.(
        {
          requestId,
          attempt: attempt.number,
          route: attempt.route,
          upstream: attempt.upstream,
          ...(attempt.credential !== undefined && { credential: attempt.credential }),
          upstreamModel: attempt.model,
          code: error.code,
          status: error.status,
          ...(error.upstream && { upstreamError: upstreamLogFields(error.upstream) }),
          ...(error.cause !== undefined && { cause: causeLogFields(error.cause) }),
          retried: ending.retried,
        },
        ATTEMPT_FAILED_MESSAGE,
      );
    },
  };
}
