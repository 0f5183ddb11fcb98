import type { Codec } from '@signalbox/core';
import { checkConfigProtocols } from './check-config-protocols';
import { ConfigError } from './config-error';
import { describeUnknownKeys } from './describe-unknown-keys';
import { gatewayConfigSchema, type GatewayConfig } from './gateway-config';

export type ParseGatewayConfigOptions = {
  /**
   * The codecs the gateway will be given: the protocol and interface names are checked against
   * them here, as `createEngine` does, so a host finds every config error before it opens anything.
   */
  codecs?: readonly Codec[];
  /** Top-level sections the host took out of the same document before parsing: suggested for a mistyped top-level key. */
  hostSections?: readonly string[];
};

/**
 * Validates a config object (parsed from JSON or YAML) and fills in defaults. Throws `ConfigError`;
 * an unknown key is named with the known one it likely stands for.
 */
export function parseGatewayConfig(input: unknown, options: ParseGatewayConfigOptions = {}): GatewayConfig {
  const result = gatewayConfigSchema.safeParse(input, { error: describeUnknownKeys(options.hostSections) });
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map(issue => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`),
    );
  }
  if (options.codecs) checkConfigProtocols(result.data, options.codecs);
  return result.data;
}
