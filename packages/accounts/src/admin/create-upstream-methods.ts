import { enableCredentialSchema } from './admin-schemas';
import type { ConsoleIdentity } from './console-identity';
import { found, parseInput, requireAdmin } from './console-scope';
import type { RecordAudit } from './create-audit-methods';
import type { ConsoleCredential, ConsoleUpstream, ConsoleUpstreams } from './console-upstream';

const NO_UPSTREAMS: ConsoleUpstreams = { list: () => [], enable: () => undefined };

/**
 * The operator's view of the gateway's upstreams and the one action on them: each upstream and
 * credential by name with its state, and enabling a credential taken out. Admin token only: an
 * account's console token gets 403 `ADMIN_TOKEN_REQUIRED`.
 */
export function createUpstreamMethods(upstreams: ConsoleUpstreams = NO_UPSTREAMS, recordAudit?: RecordAudit) {
  return {
    /** Every upstream in config order with its credentials: state, until when, why disabled, requests in flight, last error. */
    async listUpstreams(identity: ConsoleIdentity) {
      requireAdmin(identity, 'read the upstreams');
      return { data: upstreams.list().map(presentUpstream) };
    },
    /**
     * Body `{ credential }`: puts that credential of upstream `name` back in service (no longer taken
     * out, cooling down or behind an open circuit), on every instance that shares health. 404 for an
     * upstream or credential the gateway does not have.
     */
    async enableCredential(identity: ConsoleIdentity, name: string, body: unknown) {
      requireAdmin(identity, 'enable upstream credentials');
      const { credential } = parseInput(enableCredentialSchema, body);
      const enabled = presentCredential(found(upstreams.enable(name, credential), 'upstream credential'));
      await recordAudit?.(identity, { type: 'upstream-credential', id: `${name}/${credential}` }, 'enable', undefined, enabled);
      return enabled;
    },
  };
}

function presentUpstream(upstream: ConsoleUpstream) {
  return {
    name: upstream.name,
    protocol: upstream.protocol,
    state: upstream.state,
    until: isoTimeOrNull(upstream.until),
    inFlight: upstream.inFlight,
    credentials: upstream.credentials.map(presentCredential),
  };
}

function presentCredential(credential: ConsoleCredential) {
  return {
    name: credential.name,
    state: credential.state,
    until: isoTimeOrNull(credential.until),
    reason: credential.reason ?? null,
    weight: credential.weight,
    apiKeyEnv: credential.apiKeyEnv ?? null,
    inFlight: credential.inFlight,
    lastErrorCode: credential.lastErrorCode ?? null,
    lastErrorAt: isoTimeOrNull(credential.lastErrorAt),
  };
}

function isoTimeOrNull(milliseconds: number | undefined): string | null {
  return milliseconds === undefined ? null : new Date(milliseconds).toISOString();
}
