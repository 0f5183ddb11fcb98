import { circuitState, type CircuitBreaker } from './circuit-breaker';
import type { CredentialPool, DisabledReason, PooledCredential } from './credential-pool';

/** A credential's state, worst first when several apply: taken out, behind a circuit, cooling down, healthy. */
export type CredentialState = 'healthy' | 'cooling-down' | 'circuit-open' | 'circuit-half-open' | 'disabled';

/** One credential as the admin API, the panel and metrics show it: by name, never by key. */
export type CredentialHealthReport = {
  name: string;
  state: CredentialState;
  /** The end of its cooldown or of its open circuit (epoch ms); absent in other states. */
  until?: number;
  /** Why it is disabled. */
  reason?: DisabledReason;
  weight: number;
  /** The variable its key is read from (a name), when it has one. */
  apiKeyEnv?: string;
  inFlight: number;
  /** The service code of its last failed attempt, and when (epoch ms). */
  lastErrorCode?: string;
  lastErrorAt?: number;
};

/** One upstream: its own circuit, its requests in flight and its credentials, in config order. */
export type UpstreamHealthReport = {
  name: string;
  protocol: string;
  state: 'healthy' | 'circuit-open' | 'circuit-half-open';
  until?: number;
  inFlight: number;
  credentials: CredentialHealthReport[];
};

export function reportPool(pool: CredentialPool, protocol: string, now: number): UpstreamHealthReport {
  const circuit = circuitState(pool.breaker, now);
  const credentials = pool.credentials.map(credential => reportCredential(credential, now));
  return {
    name: pool.upstream,
    protocol,
    state: circuit === 'closed' ? 'healthy' : `circuit-${circuit}`,
    ...(circuit === 'open' && { until: pool.breaker.openUntil }),
    inFlight: credentials.reduce((sum, credential) => sum + credential.inFlight, 0),
    credentials,
  };
}

function reportCredential(credential: PooledCredential, now: number): CredentialHealthReport {
  return {
    name: credential.name,
    ...stateOf(credential, now),
    weight: credential.weight,
    ...(credential.apiKeyEnv !== undefined && { apiKeyEnv: credential.apiKeyEnv }),
    inFlight: credential.inFlight,
    ...(credential.lastErrorCode !== undefined && { lastErrorCode: credential.lastErrorCode, lastErrorAt: credential.lastErrorAt! }),
  };
}

function stateOf(credential: PooledCredential, now: number): Pick<CredentialHealthReport, 'state' | 'until' | 'reason'> {
  if (credential.disabled !== undefined) return { state: 'disabled', reason: credential.disabled };
  const circuit = circuitOf(credential.breaker, now);
  if (circuit) return circuit;
  if (credential.coolingUntil > now) return { state: 'cooling-down', until: credential.coolingUntil };
  return { state: 'healthy' };
}

function circuitOf(breaker: CircuitBreaker, now: number): Pick<CredentialHealthReport, 'state' | 'until'> | undefined {
  const circuit = circuitState(breaker, now);
  if (circuit === 'open') return { state: 'circuit-open', until: breaker.openUntil };
  return circuit === 'half-open' ? { state: 'circuit-half-open' } : undefined;
}
