import { GatewayError, quoteClientValue, type Protocol } from '@signalbox/core';
import type { RouteConfig } from '../config/gateway-config';
import type { ProtocolRegistry } from '../protocols/create-protocol-registry';

/** A route as the engine uses it: its config plus the protocols it serves. */
export type Route = RouteConfig & { protocols: ReadonlySet<Protocol> };

export type RouteTable = {
  /** Routes in config order (the order `GET /v1/models` lists them in). */
  readonly routes: readonly Route[];
  /** The route for an exact model ID on an interface; throws `MODEL_NOT_FOUND` / `INTERFACE_NOT_SUPPORTED`. */
  resolve(model: string, protocol: Protocol): Route;
};

/** Exact-ID routing: no prefixes, no aliases, no case folding. Refusals quote the client's model ID cut short. */
export function createRouteTable(routes: readonly RouteConfig[], registry: ProtocolRegistry): RouteTable {
  const table = routes.map(route => ({
    ...route,
    protocols: new Set(route.interfaces.map(name => registry.codecOfInterface(name)!.protocol)),
  }));
  const byModel = new Map(table.map(route => [route.model, route]));
  return {
    routes: table,
    resolve(model, protocol) {
      const route = byModel.get(model);
      if (!route) {
        throw new GatewayError({
          code: 'MODEL_NOT_FOUND',
          message: `The model ${quoteClientValue(model)} does not exist. Use an exact model ID from GET /v1/models.`,
          param: 'model',
        });
      }
      if (!route.protocols.has(protocol)) {
        const served = [...route.protocols]
          .map(served => `POST ${registry.codec(served).descriptor.generationPath}`)
          .join(' or ');
        throw new GatewayError({
          code: 'INTERFACE_NOT_SUPPORTED',
          message: `The model ${quoteClientValue(model)} does not support the ${registry.codec(protocol).descriptor.interfaceName} interface; call it with ${served}.`,
          param: 'model',
        });
      }
      return route;
    },
  };
}
