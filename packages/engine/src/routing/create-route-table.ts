import { GatewayError, type Protocol } from '@switchyard/core';
import { INTERFACE_PROTOCOLS, type InterfaceName, type RouteConfig } from '../config/gateway-config';

/** A route as the engine uses it: its config plus the protocols it serves. */
export type Route = RouteConfig & { protocols: ReadonlySet<Protocol> };

export type RouteTable = {
  /** Routes in config order (the order `GET /v1/models` lists them in). */
  readonly routes: readonly Route[];
  /** The route for an exact model ID on an interface; throws `MODEL_NOT_FOUND` / `INTERFACE_NOT_SUPPORTED`. */
  resolve(model: string, protocol: Protocol): Route;
};

const INTERFACE_NAME_BY_PROTOCOL = Object.fromEntries(
  Object.entries(INTERFACE_PROTOCOLS).map(([name, protocol]) => [protocol, name]),
) as Record<Protocol, InterfaceName>;

const ENDPOINT_BY_PROTOCOL: Record<Protocol, string> = {
  'openai-responses': 'POST /v1/responses',
  'anthropic-messages': 'POST /v1/messages',
  'openai-chat': 'POST /v1/chat/completions',
};

/** Exact-ID routing: no prefixes, no aliases, no case folding. */
export function createRouteTable(routes: readonly RouteConfig[]): RouteTable {
  const table = routes.map(route => ({
    ...route,
    protocols: new Set(route.interfaces.map(name => INTERFACE_PROTOCOLS[name])),
  }));
  const byModel = new Map(table.map(route => [route.model, route]));
  return {
    routes: table,
    resolve(model, protocol) {
      const route = byModel.get(model);
      if (!route) {
        throw new GatewayError({
          code: 'MODEL_NOT_FOUND',
          message: `The model '${model}' does not exist. Use an exact model ID from GET /v1/models.`,
          param: 'model',
        });
      }
      if (!route.protocols.has(protocol)) {
        const served = [...route.protocols].map(served => ENDPOINT_BY_PROTOCOL[served]).join(' or ');
        throw new GatewayError({
          code: 'INTERFACE_NOT_SUPPORTED',
          message: `The model '${model}' does not support the ${INTERFACE_NAME_BY_PROTOCOL[protocol]} interface; call it with ${served}.`,
          param: 'model',
        });
      }
      return route;
    },
  };
}
