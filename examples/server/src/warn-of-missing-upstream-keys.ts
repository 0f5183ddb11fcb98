import type { GatewayConfig } from '@signalbox/engine';
import type { GatewayLogger } from '@signalbox/express';

/**
 * A warning at start for each upstream key whose variable is not set (an upstream's `apiKeyEnv`, or
 * a credential's): the gateway reads upstream keys once, at start, and never uses such a key (an
 * upstream left without one is skipped, and a route with no other target answers 503
 * `NO_ACCOUNT_AVAILABLE`, which does not say why). The warning names the upstream, the credential
 * and the variable, never a value.
 */
export function warnOfMissingUpstreamKeys(config: GatewayConfig, environment: NodeJS.ProcessEnv, logger: GatewayLogger | undefined): void {
  for (const [name, upstream] of Object.entries(config.upstreams)) {
    if (upstream.apiKeyEnv !== undefined && !environment[upstream.apiKeyEnv]) {
      logger?.warn(
        { upstream: name, apiKeyEnv: upstream.apiKeyEnv },
        `upstream ${name}: ${upstream.apiKeyEnv} is not set, so it serves no request (the route's next target does, or 503 NO_ACCOUNT_AVAILABLE); set it and restart the server`,
      );
    }
    for (const credential of upstream.credentials ?? []) {
      if (environment[credential.apiKeyEnv]) continue;
      logger?.warn(
        { upstream: name, credential: credential.name, apiKeyEnv: credential.apiKeyEnv },
        `upstream ${name}, credential ${credential.name}: ${credential.apiKeyEnv} is not set, so this credential serves no request (the upstream's others do); set it and restart the server`,
      );
    }
  }
}
