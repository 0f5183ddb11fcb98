import { gatewayConfigSchema, type GatewayConfig } from './gateway-config';

/** Thrown at start for a config that does not validate; the message lists every bad path. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid gateway config:\n${problems.map(problem => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates a config object (parsed from JSON or YAML) and fills in defaults. Throws `ConfigError`. */
export function parseGatewayConfig(input: unknown): GatewayConfig {
  const result = gatewayConfigSchema.safeParse(input);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map(issue => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`),
  );
}
