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
  /** Currency units per million tokens; `null` when the route is not priced. */
  pricing: { inputPerMillion: number; outputPerMillion: number; cachedInputPerMillion: number | null } | null;
  /** The context window in tokens, when configured. */
  contextTokens: number | null;
  /** The protocol of the upstream that serves it first (its first target). */
  upstreamProtocol: string;
  /** Groups whose keys or accounts may use it; `null` means every group. */
  groups: readonly string[] | null;
};
