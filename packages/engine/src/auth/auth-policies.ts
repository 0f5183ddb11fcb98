import type { Codec } from '@signalbox/core';
import type { GatewayConfig } from '../config/gateway-config';
import type { ProtocolRegistry } from '../protocols/create-protocol-registry';
import type { ClientAuthPolicy, KeyHeaderElsewhere } from './authenticate';

/** Each interface's client policy: the host's config over the codec's own accepted versions. */
export function authPolicies(config: GatewayConfig, registry: ProtocolRegistry): (codec: Codec) => ClientAuthPolicy {
  const policies = new Map(
    registry.codecs.map(codec => {
      const configured = config.interfaceAuth[codec.descriptor.interfaceName];
      return [
        codec.protocol,
        {
          acceptedVersions: configured?.acceptedVersions ?? codec.descriptor.version?.accepted ?? [],
          acceptBearer: configured?.acceptBearer ?? false,
        },
      ];
    }),
  );
  return codec => policies.get(codec.protocol)!;
}

/** The key headers of the registry's interfaces, for the hint to a Bearer caller who sent one to the wrong path. */
export function keyHeadersOf(registry: ProtocolRegistry): KeyHeaderElsewhere[] {
  return registry.codecs.flatMap(({ descriptor }) =>
    descriptor.credential.kind === 'header' ? [{ header: descriptor.credential.header, path: descriptor.generationPath }] : [],
  );
}
