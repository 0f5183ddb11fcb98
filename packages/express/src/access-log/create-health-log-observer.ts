import type { EngineObserver } from '@signalbox/engine';
import type { GatewayLogger } from '../gateway-logger';

/**
 * One line per change of an upstream's health this instance learned (never per request): a key the
 * upstream refused taken out at `error`, since nothing brings it back but an operator (the admin
 * API's `POST /admin/upstreams/{name}/enable`) or a restart; a circuit opened at `warn`; a cooldown,
 * a circuit closed and a credential enabled at `info`. Credentials are named, never shown.
 *
 * @example createGateway({ …, observer: createHealthLogObserver(logger) })
 */
export function createHealthLogObserver(logger: GatewayLogger): EngineObserver {
  return {
    upstreamHealthChanged(mark) {
      const fields = { upstream: mark.upstream, ...(mark.credential !== undefined && { credential: mark.credential }) };
      switch (mark.kind) {
        case 'disabled':
          return logger.error({ ...fields, reason: mark.reason }, DISABLED_MESSAGE);
        case 'circuit-open':
          return logger.warn({ ...fields, until: new Date(mark.until).toISOString() }, 'upstream circuit opened after repeated failures: not tried until a probe succeeds');
        case 'cooldown':
          return logger.info({ ...fields, until: new Date(mark.until).toISOString() }, 'upstream credential rate-limited: cooling down until its reset');
        case 'circuit-closed':
          return logger.info(fields, 'upstream circuit closed: its probe succeeded');
        case 'enabled':
          return logger.info(fields, 'upstream credential enabled again');
      }
    },
  };
}

/** The message of the line that says a credential was taken out. */
export const DISABLED_MESSAGE = 'upstream refused the credential\'s key: taken out until it is enabled again (admin API) or the gateway restarts';
