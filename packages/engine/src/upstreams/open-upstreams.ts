import type { UpstreamKind } from '@signalbox/core';
import type { UpstreamClientStats } from '@signalbox/upstream';
import type { GatewayConfig, UpstreamConfig } from '../config/gateway-config';
import type { UpstreamTarget } from '../generation/upstream-target';
import type { ProtocolRegistry } from '../protocols/create-protocol-registry';
import { defaultUpstreamKind, openCredentialPool, type OpenUpstreamClient } from './open-credential-pool';

/** What opening the configured upstreams takes. */
export type UpstreamOpening = {
  upstreams: GatewayConfig['upstreams'];
  registry: ProtocolRegistry;
  /** Where keys are read: `apiKeyEnv` and each credential's variable. */
  environment: Readonly<Record<string, string | undefined>>;
  openClient: OpenUpstreamClient;
  /** The kinds an upstream's `kind` may name (checked at start). */
  kinds: readonly UpstreamKind[];
  now(): number;
  /** Makes a value a kind learns at run time (a token) a known secret. */
  rememberSecret(value: string): void;
};

/** Each configured upstream, by its config name, opened by its kind, with the clients of its credentials opened. */
export function openUpstreams(opening: UpstreamOpening): Map<string, UpstreamTarget> {
  return new Map(Object.entries(opening.upstreams).map(([name, upstream]) => [name, openUpstream(name, upstream, opening)]));
}

/** One upstream opened by its kind, with a client per credential (at start, or when a config change adds or changes it). */
export function openUpstream(name: string, upstream: UpstreamConfig, opening: Omit<UpstreamOpening, 'upstreams'>): UpstreamTarget {
  const { registry, environment, openClient, kinds, now, rememberSecret } = opening;
  const codec = registry.codec(upstream.protocol);
  const { baseURL, protocol, kind: kindName } = upstream;
  const kind =
    kindName === undefined
      ? defaultUpstreamKind(codec, environment)
      : kinds.find(known => known.name === kindName)!.open({ upstream: name, baseURL, protocol, environment, now, rememberSecret });
  const pool = openCredentialPool(name, upstream, codec, kind, openClient);
  return { name, codec, kindName, kind, path: codec.descriptor.upstreamPath, pool, quirks: upstream.quirks };
}

/** Each upstream's connections, its credentials' clients added up; an upstream whose clients cannot tell (scripted ones) is left out. */
export function upstreamStatsOf(upstreams: ReadonlyMap<string, UpstreamTarget>): Record<string, UpstreamClientStats> {
  const stats: Record<string, UpstreamClientStats> = {};
  for (const [name, target] of upstreams) {
    for (const { client } of target.pool.credentials) {
      if (!client.stats) continue;
      const { connected, inUse, queued } = client.stats();
      const sum = (stats[name] ??= { connected: 0, inUse: 0, queued: 0 });
      sum.connected += connected;
      sum.inUse += inUse;
      sum.queued += queued;
    }
  }
  return stats;
}
