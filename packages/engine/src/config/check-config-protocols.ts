import { closestName, type Codec } from '@signalbox/core';
import { neverForwardedHeadersOf, refusedHeaderPattern } from '../generation/client-header-patterns';
import type { GatewayConfig } from './gateway-config';
import { ConfigError } from './config-error';

/**
 * The config against the codecs the gateway was given: every upstream speaks a protocol some codec
 * knows, every route interface is some codec's, and no `forwardClientHeaders` pattern matches a
 * codec's credential, version or account header, and every upstream quirk is one its codec knows. Throws `ConfigError` naming each bad path and
 * what is known.
 */
export function checkConfigProtocols(config: GatewayConfig, codecs: readonly Codec[]): void {
  const protocols = codecs.map(codec => codec.protocol);
  const interfaces = codecs.map(codec => codec.descriptor.interfaceName);
  const problems: string[] = [];
  for (const [name, upstream] of Object.entries(config.upstreams)) {
    const codec = codecs.find(candidate => candidate.protocol === upstream.protocol);
    if (codec === undefined) {
      problems.push(`upstreams.${name}.protocol: no codec speaks '${upstream.protocol}' (known: ${protocols.join(', ')})`);
    } else {
      problems.push(...unknownQuirks(name, upstream.quirks, codec));
    }
  }
  config.routes.forEach((route, index) => {
    route.interfaces.forEach((name, position) => {
      if (!interfaces.includes(name)) {
        problems.push(`routes.${index}.interfaces.${position}: unknown interface '${name}' (known: ${interfaces.join(', ')})`);
      }
    });
  });
  for (const name of Object.keys(config.interfaceAuth)) {
    if (!interfaces.includes(name)) problems.push(`interfaceAuth.${name}: unknown interface (known: ${interfaces.join(', ')})`);
  }
  const neverForwarded = neverForwardedHeadersOf(codecs.map(codec => codec.descriptor));
  config.forwardClientHeaders.forEach((pattern, index) => {
    const reason = refusedHeaderPattern(pattern, neverForwarded);
    if (reason !== undefined) problems.push(`forwardClientHeaders.${index}: '${pattern}' ${reason}`);
  });
  if (problems.length > 0) throw new ConfigError(problems);
}

/** The upstream's quirks its protocol's codec does not know, each with the ones it does. */
function unknownQuirks(name: string, quirks: readonly string[], codec: Codec): string[] {
  const known = Object.keys(codec.upstreamQuirks?.known ?? {});
  return quirks.flatMap((quirk, index) => {
    if (known.includes(quirk)) return [];
    const near = closestName(quirk, known);
    const hint = near === undefined ? '' : ` (did you mean ${near}?)`;
    return [`upstreams.${name}.quirks.${index}: '${codec.protocol}' has no quirk '${quirk}'${hint}; known: ${known.join(', ') || 'none'}`];
  });
}
