import type { Codec, JSONObject, ModelInfo } from '@signalbox/core';
import { mayUseRoute } from '../admission/authorize-route';
import type { Principal } from '../auth/authenticate';
import type { Route } from './create-route-table';

/** Lists the routes a caller may use, in config order, in the list shape of the caller's protocol. */
export type ListModels = (principal: Principal, codec: Codec) => JSONObject;

/** The models list of a route table whose routes all appeared at `createdAt` (Unix seconds): read, never billed. */
export function createModelsList(routes: readonly Route[], createdAt: number): ListModels {
  const models: ModelInfo[] = routes.map(route => ({
    id: route.model,
    createdAt,
    protocols: [...route.protocols],
    ...(route.description !== undefined && { description: route.description }),
  }));
  return (principal, codec) => {
    const allowed = new Set(routes.filter(route => mayUseRoute(principal, route)).map(route => route.model));
    return codec.encodeModelList(models.filter(model => allowed.has(model.id)));
  };
}
