/**
 * One model route as a console shows it, so callers can copy its exact model ID and see how to call
 * it and what it costs. The host builds these from its gateway (`describeConsoleRoutes` in
 * `@signalbox/express`), since this package does not know the engine.
 */
export type ConsoleRoute = {
  /** The exact model ID clients send. */
  model: string;
  description: string | null;
  /** The client interfaces that can call it: the config's name, the protocol, the generation path. */
  interfaces: readonly { name: string; protocol: string; path: string }[];
  /**
   * Currency units per million tokens; `null` when the route is not priced. A `null` cache price
   * (reads, 5-minute and 1-hour writes) is the input price.
   */
  pricing: {
    inputPerMillion: number;
    outputPerMillion: number;
    cachedInputPerMillion: number | null;
    cacheWritePerMillion: number | null;
    cacheWrite1hPerMillion: number | null;
  } | null;
  /** The context window in tokens, when configured. */
  contextTokens: number | null;
  /** The protocol of the upstream that serves it first (its first target). */
  upstreamProtocol: string;
  /** Groups whose keys or accounts may use it; `null` means every group. */
  groups: readonly string[] | null;
};

/** Whether a key of `group` (its own, else its account's) may use the route: the gateway's group check. */
export function routeOpenTo(route: ConsoleRoute, group: string | undefined): boolean {
  return route.groups === null || (group !== undefined && route.groups.includes(group));
}

/** The model IDs a key of `group` with `allowedModels` may call among `routes`: the gateway's two route checks. */
export function modelsOpenTo(routes: readonly ConsoleRoute[], group: string | undefined, allowedModels?: readonly string[]): Set<string> {
  const open = routes.filter(route => routeOpenTo(route, group) && (allowedModels === undefined || allowedModels.includes(route.model)));
  return new Set(open.map(route => route.model));
}
