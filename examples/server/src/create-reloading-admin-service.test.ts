import { createMemoryAccountStore, digestAdminToken, generateAdminToken } from '@signalbox/accounts';
import { GatewayError } from '@signalbox/core';
import { createReloadingAdminService } from './create-reloading-admin-service';

describe('createReloadingAdminService', () => {
  it('logs in with the admin token of the moment and ends a session whose admin token was rotated away', async () => {
    const [retired, current] = [generateAdminToken(), generateAdminToken()];
    let digests: readonly string[] = [digestAdminToken(retired)];
    const admin = createReloadingAdminService({ store: createMemoryAccountStore() }, () => digests);
    const session = await admin.authenticateToken(retired);
    await expect(admin.checkIdentity(session)).resolves.toEqual(session);

    digests = [digestAdminToken(current)];
    const refusal = await admin.checkIdentity(session).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).code).toBe('ADMIN_TOKEN_INVALID');
    await expect(admin.authenticateToken(retired)).rejects.toMatchObject({ code: 'ADMIN_TOKEN_INVALID' });
    const renewed = await admin.authenticateToken(current);
    await expect(admin.checkIdentity(renewed)).resolves.toEqual(renewed);
  });
});
