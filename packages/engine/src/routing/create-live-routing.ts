import { isDeepStrictEqual } from 'node:util';
import type { UpstreamKind } from '@signalbox/core';
import type { Clock } from '../clock/clock';
import { checkConfigKinds } from '../config/check-config-kinds';
import { checkConfigProtocols } from '../config/check-config-protocols';
import type { GatewayConfig } from '../config/gateway-config';
import type { UpstreamTarget } from '../generation/upstream-target';
import type { ProtocolRegistry } from '../protocols/create-protocol-registry';
import type { CredentialPool } from '../upstreams/credential-pool';
import { openUpstream, type UpstreamOpening } from '../upstreams/open-upstreams';
import { buildRouting, type Routing } from './routing';

/** How often a retired upstream is checked for attempts still running on it before its connections close. */
export const RETIRED_UPSTREAM_CHECK_MS = 1_000;

export type LiveRoutingOptions = {
  config: GatewayConfig;
  registry: ProtocolRegistry;
  kinds: readonly UpstreamKind[];
  /** Opens an upstream that is new or changed (environment, clients, kinds). */
  opening: Omit<UpstreamOpening, 'upstreams'>;
  clock: Clock;
  /**
   * Each upstream's credential pool by name, kept up to date here for the engine's health (which
   * reads it for reports, operator actions and other instances' marks).
   */
  pools: Map<string, CredentialPool>;
};

/** The engine's routes and upstreams, replaced whole between requests by a config change. */
export type LiveRouting = {
  /** The routing new requests use: one reference, read once per request. */
  readonly current: Routing;
  /**
   * Makes `config`'s routes and upstreams the current ones. An upstream whose config is unchanged
   * keeps its clients and health; one removed or changed is retired: its connections close once no
   * attempt runs on it (`closed`). Throws `ConfigError` (nothing changes) when it names a protocol,
   * interface or kind the gateway lacks.
   */
  apply(config: GatewayConfig): { closed: Promise<void> };
  /** Closes every upstream's connections, retired ones included. */
  close(): Promise<void>;
};

export function createLiveRouting(options: LiveRoutingOptions): LiveRouting {
  const { registry, kinds, opening, clock, pools } = options;
  const createdAt = Math.floor(clock.now() / 1000);
  const retiring = new Set<Promise<void>>();
  let closing = false;
  const open = (config: GatewayConfig, kept: ReadonlyMap<string, UpstreamTarget>) =>
    new Map(Object.entries(config.upstreams).map(([name, upstream]) => [name, kept.get(name) ?? openUpstream(name, upstream, opening)]));
  const first = open(options.config, new Map());
  for (const [name, target] of first) pools.set(name, target.pool);
  let current = buildRouting(options.config, registry, first, createdAt);
  const retire = (targets: readonly UpstreamTarget[]) => {
    const closed = Promise.all(targets.map(target => closeWhenIdle(target, clock, () => closing))).then(() => undefined);
    retiring.add(closed);
    void closed.finally(() => retiring.delete(closed));
    return closed;
  };
  return {
    get current() {
      return current;
    },
    apply(config) {
      checkConfigProtocols(config, registry.codecs);
      checkConfigKinds(config, kinds);
      const previous = current;
      const kept = new Map([...previous.upstreams].filter(([name]) => isDeepStrictEqual(previous.config.upstreams[name], config.upstreams[name])));
      const upstreams = open(config, kept);
      for (const [name, target] of upstreams) {
        pools.set(name, target.pool);
        if (!kept.has(name)) target.pool.secrets.forEach(opening.rememberSecret);
      }
      for (const name of previous.upstreams.keys()) if (!upstreams.has(name)) pools.delete(name);
      current = buildRouting(config, registry, upstreams, createdAt);
      return { closed: retire([...previous.upstreams.values()].filter(target => upstreams.get(target.name) !== target)) };
    },
    async close() {
      closing = true;
      await Promise.all([...retiring, ...[...current.upstreams.values()].map(closeTarget)]);
    },
  };
}

/** Waits until no attempt runs on any of the upstream's credentials (or the engine closes), then closes its connections. */
async function closeWhenIdle(target: UpstreamTarget, clock: Clock, closing: () => boolean): Promise<void> {
  while (!closing() && target.pool.credentials.some(credential => credential.inFlight > 0)) await clock.sleep(RETIRED_UPSTREAM_CHECK_MS);
  await closeTarget(target);
}

function closeTarget(target: UpstreamTarget): Promise<void> {
  return Promise.all(target.pool.credentials.map(credential => credential.client.close())).then(() => undefined);
}
