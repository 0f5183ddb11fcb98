import { routeAffinityOf, type RouteAffinity } from '../affinity/session-affinity';
import type { GatewayConfig } from '../config/gateway-config';
import type { UpstreamTarget } from '../generation/upstream-target';
import type { ProtocolRegistry } from '../protocols/create-protocol-registry';
import { createModelsList, type ListModels } from './create-models-list';
import { createRouteTable, type RouteTable } from './create-route-table';

/** A route's target, opened: the upstream that serves it and the model ID sent there. */
export type OpenedTarget = { upstream: UpstreamTarget; model: string };

/**
 * The routes and upstreams of one config version, whole: a request reads it once when it is routed
 * and keeps it to its end, so a config change replaces it for later requests only.
 */
export type Routing = {
  /** The config it was built from (its routes' prices resolved). */
  readonly config: GatewayConfig;
  readonly table: RouteTable;
  /** Each upstream by config name, its credentials' clients open. */
  readonly upstreams: ReadonlyMap<string, UpstreamTarget>;
  targetsOf(model: string): readonly OpenedTarget[];
  /** What a route does with conversations (keys them, keeps them on a credential), by its configured model ID. */
  affinityOf(model: string): RouteAffinity;
  listModels: ListModels;
};

/** The routing of `config` over upstreams already opened for it; `createdAt` (Unix seconds) is what the models list says. */
export function buildRouting(
  config: GatewayConfig,
  registry: ProtocolRegistry,
  upstreams: ReadonlyMap<string, UpstreamTarget>,
  createdAt: number,
): Routing {
  const table = createRouteTable(config.routes, registry);
  const targets = new Map(
    table.routes.map(route => [route.model, route.targets.map(target => ({ upstream: upstreams.get(target.upstream)!, model: target.model }))]),
  );
  const affinities = new Map(
    config.routes.map(route => [route.model, routeAffinityOf(config.sessionAffinity, route.sessionAffinity, targets.get(route.model)!)]),
  );
  return {
    config,
    table,
    upstreams,
    targetsOf: model => targets.get(model)!,
    affinityOf: model => affinities.get(model)!,
    listModels: createModelsList(table.routes, createdAt),
  };
}
