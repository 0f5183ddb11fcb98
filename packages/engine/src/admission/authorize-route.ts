import { GatewayError, quoteClientValue } from '@signalbox/core';
import type { Principal } from '../auth/authenticate';
import type { Route } from '../routing/create-route-table';

/** 403s for a key that may not use this route: by its model list, or by its (or its account's) group. */
export function authorizeRoute(principal: Principal, route: Route): void {
  const refusal = routeRefusal(principal, route);
  if (refusal) throw refusal;
}

/** Whether a key may use a route (what the models list shows it). */
export function mayUseRoute(principal: Principal, route: Route): boolean {
  return routeRefusal(principal, route) === undefined;
}

function routeRefusal(principal: Principal, route: Route): GatewayError | undefined {
  const allowed = principal.key.allowedModels;
  if (allowed && !allowed.includes(route.model)) {
    return new GatewayError({
      code: 'MODEL_NOT_ALLOWED',
      message: `This API key may not use the model ${quoteClientValue(route.model)}.`,
      param: 'model',
    });
  }
  if (!route.groups) return undefined;
  const group = principal.key.group ?? principal.account.group;
  if (group !== undefined && route.groups.includes(group)) return undefined;
  return new GatewayError({
    code: 'GROUP_NOT_ALLOWED',
    message: `The model ${quoteClientValue(route.model)} is not available to ${group === undefined ? 'keys without a group' : `the group '${group}'`}.`,
    param: 'model',
  });
}
