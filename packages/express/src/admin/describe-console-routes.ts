import type { ConsoleRoute } from '@signalbox/accounts';
import type { Engine } from '@signalbox/engine';

/**
 * The gateway's routes as a console lists them, from the same route table `GET /v1/models` lists:
 * exact model ID, each client interface with its protocol and generation path, pricing, context
 * size, the protocol of the upstream that serves it first, and its groups.
 */
export function describeConsoleRoutes(engine: Engine): ConsoleRoute[] {
  const { config } = engine;
  return engine.routes.map(route => {
    const first = route.targets[0]!;
    return {
      model: route.model,
      description: route.description ?? null,
      interfaces: route.interfaces.map(name => {
        const codec = engine.registry.codecOfInterface(name)!;
        return { name, protocol: codec.protocol, path: codec.descriptor.generationPath };
      }),
      pricing: route.pricing
        ? {
            inputPerMillion: route.pricing.inputPerMillion,
            outputPerMillion: route.pricing.outputPerMillion,
            cachedInputPerMillion: route.pricing.cachedInputPerMillion ?? null,
            cacheWritePerMillion: route.pricing.cacheWritePerMillion ?? null,
            cacheWrite1hPerMillion: route.pricing.cacheWrite1hPerMillion ?? null,
          }
        : null,
      contextTokens: route.contextTokens ?? null,
      upstreamProtocol: config.upstreams[first.upstream]!.protocol,
      groups: route.groups ? [...route.groups] : null,
    };
  });
}
