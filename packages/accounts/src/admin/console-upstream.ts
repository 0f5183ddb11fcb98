/**
 * One upstream credential as consoles show it: by its config name, never by its key. The host
 * builds these from its gateway (`gateway.consoleUpstreams` in `@signalbox/express`: the engine's
 * `upstreamHealth()`), since this package does not know the engine. Times are epoch ms.
 */
export type ConsoleCredential = {
  name: string;
  state: 'healthy' | 'cooling-down' | 'circuit-open' | 'circuit-half-open' | 'disabled';
  /** The end of its cooldown or of its open circuit. */
  until?: number;
  /** Why it is disabled: its upstream refused its key (`upstream-401`, `upstream-403`), or its variable is unset (`key-missing`). */
  reason?: string;
  weight: number;
  /** The environment variable its key is read from (a name, never a value). */
  apiKeyEnv?: string;
  inFlight: number;
  lastErrorCode?: string;
  lastErrorAt?: number;
};

/** One upstream: its own circuit, its requests in flight and its credentials. */
export type ConsoleUpstream = {
  name: string;
  protocol: string;
  state: 'healthy' | 'circuit-open' | 'circuit-half-open';
  until?: number;
  inFlight: number;
  credentials: readonly ConsoleCredential[];
};

/** Where the admin service reads upstream health and puts a credential back in service. */
export type ConsoleUpstreams = {
  list(): readonly ConsoleUpstream[];
  /** The credential's state once enabled, or `undefined` when the upstream has no credential of that name. */
  enable(upstream: string, credential: string): ConsoleCredential | undefined;
};
