import type { GatewayError } from '@signalbox/core';
import { circuitFailed, circuitSucceeded, closeCircuit, openCircuit, type CircuitBreaker } from './circuit-breaker';
import type { CredentialPool, PooledCredential } from './credential-pool';
import type { CredentialHealthStore, HealthChannel, HealthMark } from './health-store';
import { reportPool, type UpstreamHealthReport } from './report-upstream-health';

/** How long a 429 that names no reset (no `retry-after`, no rate-limit reset header) cools its credential. */
export const DEFAULT_COOLDOWN_MS = 1_000;

export type UpstreamHealthOptions = {
  /** Each upstream's pool, by config name. */
  pools: ReadonlyMap<string, CredentialPool>;
  /** Where instances share what they learn; without one, this engine keeps it to itself. */
  store?: CredentialHealthStore;
  /** Told each change this engine learned itself (not those shared by others): for logs and metrics. */
  onChange?: (mark: HealthMark) => void;
};

/** What the engine knows of its upstreams' health, learned from answers and shared with other instances. */
export type UpstreamHealth = {
  readonly pools: ReadonlyMap<string, CredentialPool>;
  /** An attempt on `credential` failed: a 429 cools it down, a 401/403 takes it out, a server or connection failure counts towards its circuit and its upstream's. */
  failed(credential: PooledCredential, failure: GatewayError, now: number): void;
  /** An attempt on `credential` reached its answer: their circuits' failure counts start again, a half-open one closes. */
  succeeded(credential: PooledCredential, now: number): void;
  /** Puts a credential back in service (an operator's action): not taken out, not cooling down, its circuit and its upstream's closed. */
  enable(upstream: string, credential: string): boolean;
  report(now: number): UpstreamHealthReport[];
  /** Leaves the store. */
  close(): Promise<void>;
};

export function createUpstreamHealth(options: UpstreamHealthOptions): UpstreamHealth {
  const { pools } = options;
  const onChange = options.onChange ?? (() => undefined);
  let channel: HealthChannel | undefined;
  /** Applies a mark here and tells the other instances; `changed` is whether it was news here. */
  const learn = (mark: HealthMark, changed: boolean) => {
    if (changed) onChange(mark);
    channel?.share(mark);
  };
  const health: UpstreamHealth = {
    pools,
    failed(credential, failure, now) {
      credential.lastErrorCode = failure.code;
      credential.lastErrorAt = now;
      const upstream = credential.pool.upstream;
      if (failure.code === 'UPSTREAM_RATE_LIMITED' && failure.upstream !== undefined) {
        const until = now + (failure.retryAfterMs ?? DEFAULT_COOLDOWN_MS);
        if (until <= credential.coolingUntil) return;
        const news = credential.coolingUntil <= now;
        credential.coolingUntil = until;
        learn({ kind: 'cooldown', upstream, credential: credential.name, until }, news);
      } else if (failure.code === 'UPSTREAM_AUTH_FAILED') {
        if (credential.disabled !== undefined) return;
        credential.disabled = failure.upstream?.status === 403 ? 'upstream-403' : 'upstream-401';
        learn({ kind: 'disabled', upstream, credential: credential.name, reason: credential.disabled }, true);
      } else if (countsForCircuit(failure)) {
        if (circuitFailed(credential.breaker, now)) learn(openMark(credential.pool, credential, credential.breaker), true);
        if (circuitFailed(credential.pool.breaker, now)) learn(openMark(credential.pool, undefined, credential.pool.breaker), true);
      }
    },
    succeeded(credential, now) {
      if (circuitSucceeded(credential.breaker, now)) learn({ kind: 'circuit-closed', upstream: credential.pool.upstream, credential: credential.name }, true);
      if (circuitSucceeded(credential.pool.breaker, now)) learn({ kind: 'circuit-closed', upstream: credential.pool.upstream }, true);
    },
    enable(upstream, name) {
      const credential = pools.get(upstream)?.credentials.find(candidate => candidate.name === name);
      if (!credential || credential.disabled === 'key-missing') return false;
      const mark: HealthMark = { kind: 'enabled', upstream, credential: name };
      applyMark(pools, mark);
      learn(mark, true);
      return true;
    },
    report: now => [...pools.values()].map(pool => reportPool(pool, pool.protocol, now)),
    async close() {
      await channel?.leave();
    },
  };
  if (options.store) channel = joinStore(options.store, pools);
  return health;
}

/** Joins the store: applies what others share from now on, and catches up with what is in force. */
function joinStore(store: CredentialHealthStore, pools: ReadonlyMap<string, CredentialPool>): HealthChannel {
  const channel = store.join(mark => applyMark(pools, mark));
  void channel.marks().then(marks => marks.forEach(mark => applyMark(pools, mark)));
  return channel;
}

/** A mark another instance shared (or an operator's action) applied to this engine's state; marks for credentials it does not have are ignored. */
export function applyMark(pools: ReadonlyMap<string, CredentialPool>, mark: HealthMark): void {
  const pool = pools.get(mark.upstream);
  if (!pool) return;
  const credential = mark.credential === undefined ? undefined : pool.credentials.find(candidate => candidate.name === mark.credential);
  if (mark.credential !== undefined && !credential) return;
  const breaker = credential?.breaker ?? pool.breaker;
  if (mark.kind === 'cooldown') credential!.coolingUntil = Math.max(credential!.coolingUntil, mark.until);
  else if (mark.kind === 'circuit-open') openCircuit(breaker, mark.until);
  else if (mark.kind === 'circuit-closed') closeCircuit(breaker);
  else if (mark.kind === 'disabled') credential!.disabled ??= mark.reason;
  else if (credential!.disabled !== 'key-missing') {
    // An operator's "try it again": nothing the gateway learned keeps the credential out, its upstream's circuit included.
    credential!.disabled = undefined;
    credential!.coolingUntil = 0;
    closeCircuit(breaker);
    closeCircuit(pool.breaker);
  }
}

function openMark(pool: CredentialPool, credential: PooledCredential | undefined, breaker: CircuitBreaker): HealthMark {
  return { kind: 'circuit-open', upstream: pool.upstream, ...(credential && { credential: credential.name }), until: breaker.openUntil };
}

/**
 * Server errors and connection failures count towards a circuit: a refused or failed connection, a
 * timeout, an upstream 5xx (or a body it cut short or could not make JSON), its overload. Not the
 * gateway's own overload (its connections all busy: no upstream status), nor an answer that came.
 */
function countsForCircuit(failure: GatewayError): boolean {
  switch (failure.code) {
    case 'UPSTREAM_UNREACHABLE':
    case 'UPSTREAM_TIMEOUT':
      return true;
    case 'UPSTREAM_OVERLOADED':
      return failure.upstream !== undefined;
    case 'UPSTREAM_FAILED':
      return failure.upstream === undefined || (failure.upstream.status ?? 0) >= 500;
    default:
      return false;
  }
}
