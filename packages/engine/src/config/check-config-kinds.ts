import type { UpstreamKind } from '@signalbox/core';
import { ConfigError } from './config-error';
import type { GatewayConfig } from './gateway-config';

/**
 * The upstreams' kinds against the kinds the gateway was given: each named kind is known and
 * serves the upstream's protocol, its `auth` settings are right by the kind's own rules, and an
 * upstream of its protocol's default kind sets no `auth`. Throws `ConfigError` naming each bad path.
 */
export function checkConfigKinds(config: GatewayConfig, kinds: readonly UpstreamKind[]): void {
  const problems: string[] = [];
  for (const [name, upstream] of Object.entries(config.upstreams)) {
    if (upstream.kind === undefined) {
      if (upstream.auth !== undefined) problems.push(`upstreams.${name}.auth: only an upstream with a \`kind\` takes auth settings`);
      continue;
    }
    const kind = kinds.find(known => known.name === upstream.kind);
    if (!kind) {
      problems.push(`upstreams.${name}.kind: unknown kind '${upstream.kind}' (known: ${kinds.map(known => known.name).join(', ') || 'none'})`);
      continue;
    }
    if (!kind.protocols.includes(upstream.protocol)) {
      problems.push(`upstreams.${name}.protocol: the ${kind.name} kind serves ${kind.protocols.join(', ')}, not '${upstream.protocol}'`);
    }
    for (const problem of kind.checkAuth(upstream.auth)) problems.push(`upstreams.${name}.auth: ${problem}`);
    if (upstream.auth !== undefined && upstream.credentials !== undefined) {
      problems.push(`upstreams.${name}: \`auth\` and \`credentials\` cannot both be set (auth is the upstream's one credential)`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
}
