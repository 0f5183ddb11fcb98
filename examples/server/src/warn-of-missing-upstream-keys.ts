import type { GatewayConfig } from '@signalbox/engine';
import type { GatewayLogger } from '@signalbox/express';

/**
 * A warning at start for each upstream whose `apiKeyEnv` names a variable that is not set: the
 * gateway reads upstream keys once, at start, and skips such an upstream (a route with no other
 * target answers 503 `NO_ACCOUNT_AVAILABLE`, which does not say why). The warning names the
 * upstream and the variable, never a value.
 */
export function warnOfMissingUpstreamKeys(config: GatewayConfig, environment: NodeJS.ProcessEnv, logger: GatewayLogger | undefined): void {
  for (const [name, upstream] of Object.entries(config.upstreams)) {
    if (upstream.apiKeyEnv === undefined || environment[upstream.apiKeyEnv]) continue;
    logger?.warn(
      { upstream: name, apiKeyEnv: upstream.apiKeyEnv },
      `upstream ${name}: ${upstream.apiKeyEnv} is not set, so it serves no request (the route's next target does, or 503 NO_ACCOUNT_AVAILABLE); set it and restart the server`,
    );
  }
}
