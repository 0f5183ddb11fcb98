/** A route as the Models page shows it: the config's public facts, never an upstream's address or key. */
export type PanelRoute = {
  model: string;
  description?: string;
  /** Client interfaces by name: `responses`, `messages`, `chat`. */
  interfaces: readonly string[];
  contextTokens?: number;
  pricing?: { inputPerMillion: number; outputPerMillion: number; cachedInputPerMillion?: number };
};

/** Only the public fields of a route (a config route carries its targets, which stay on the server). */
export function presentRoute(route: PanelRoute): PanelRoute {
  return {
    model: route.model,
    ...(route.description !== undefined && { description: route.description }),
    interfaces: [...route.interfaces],
    ...(route.contextTokens !== undefined && { contextTokens: route.contextTokens }),
    ...(route.pricing !== undefined && { pricing: { ...route.pricing } }),
  };
}
