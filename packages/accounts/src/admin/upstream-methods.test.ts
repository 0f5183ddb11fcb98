import { GatewayError } from '@signalbox/core';
import { createMemoryAccountStore } from '../store/create-memory-account-store';
import { ADMIN_IDENTITY } from './console-identity';
import { createAdminService } from './create-admin-service';
import type { ConsoleUpstreams } from './console-upstream';

const T0 = Date.parse('2026-01-01T12:00:00Z');

function serviceWith(upstreams: ConsoleUpstreams) {
  return createAdminService({ store: createMemoryAccountStore({ holdSweepIntervalMs: 0 }), adminTokenDigests: [], upstreams });
}

describe('AdminService upstreams', () => {
  it('lists each upstream and credential by name, times in ISO 8601 and absent facts as null', async () => {
    const admin = serviceWith({
      list: () => [
        {
          name: 'anthropic',
          protocol: 'anthropic-messages',
          state: 'healthy',
          inFlight: 3,
          credentials: [
            { name: 'team-a', state: 'cooling-down', until: T0 + 30_000, weight: 2, apiKeyEnv: 'ANTHROPIC_KEY_A', inFlight: 0, lastErrorCode: 'UPSTREAM_RATE_LIMITED', lastErrorAt: T0 },
            { name: 'team-b', state: 'disabled', reason: 'upstream-401', weight: 1, inFlight: 0 },
            { name: 'team-c', state: 'healthy', weight: 1, inFlight: 3 },
          ],
        },
      ],
      enable: () => undefined,
    });
    expect(await admin.listUpstreams(ADMIN_IDENTITY)).toEqual({
      data: [
        {
          name: 'anthropic',
          protocol: 'anthropic-messages',
          state: 'healthy',
          until: null,
          inFlight: 3,
          credentials: [
            { name: 'team-a', state: 'cooling-down', until: '2026-01-01T12:00:30.000Z', reason: null, weight: 2, apiKeyEnv: 'ANTHROPIC_KEY_A', inFlight: 0, lastErrorCode: 'UPSTREAM_RATE_LIMITED', lastErrorAt: '2026-01-01T12:00:00.000Z' },
            { name: 'team-b', state: 'disabled', until: null, reason: 'upstream-401', weight: 1, apiKeyEnv: null, inFlight: 0, lastErrorCode: null, lastErrorAt: null },
            { name: 'team-c', state: 'healthy', until: null, reason: null, weight: 1, apiKeyEnv: null, inFlight: 3, lastErrorCode: null, lastErrorAt: null },
          ],
        },
      ],
    });
  });

  it('enables the credential named in the body, and answers 400 naming the field for a body without one', async () => {
    const enabled: string[] = [];
    const admin = serviceWith({
      list: () => [],
      enable: (upstream, credential) => {
        enabled.push(`${upstream}/${credential}`);
        return { name: credential, state: 'healthy', weight: 1, inFlight: 0 };
      },
    });
    expect(await admin.enableCredential(ADMIN_IDENTITY, 'anthropic', { credential: 'team-b' })).toMatchObject({ name: 'team-b', state: 'healthy' });
    expect(enabled).toEqual(['anthropic/team-b']);
    const refused = await admin.enableCredential(ADMIN_IDENTITY, 'anthropic', {}).catch((error: unknown) => error);
    expect(GatewayError.isInstance(refused) && [refused.code, refused.param]).toEqual(['INVALID_REQUEST', 'credential']);
  });

  it('knows no upstream without a gateway to ask', async () => {
    const admin = createAdminService({ store: createMemoryAccountStore({ holdSweepIntervalMs: 0 }), adminTokenDigests: [] });
    expect(await admin.listUpstreams(ADMIN_IDENTITY)).toEqual({ data: [] });
    const refused = await admin.enableCredential(ADMIN_IDENTITY, 'anthropic', { credential: 'team-b' }).catch((error: unknown) => error);
    expect(GatewayError.isInstance(refused) && refused.code).toBe('RESOURCE_NOT_FOUND');
  });
});
