import { createAdminService, type AdminService, type AdminServiceOptions } from '@signalbox/accounts';

/**
 * An admin service whose admin tokens can change while it runs: authentication checks against
 * whatever `currentDigests()` returns at that moment (see `watchAdminTokenFile`, which returns the
 * same array until the file changes, so the service is rebuilt only on a rotation). Account
 * console tokens live in the store and need no reload.
 */
export function createReloadingAdminService(
  options: Omit<AdminServiceOptions, 'adminTokenDigests'>,
  currentDigests: () => readonly string[],
): AdminService {
  let digests = currentDigests();
  let service = createAdminService({ ...options, adminTokenDigests: digests });
  const current = () => {
    const latest = currentDigests();
    if (latest !== digests) {
      digests = latest;
      service = createAdminService({ ...options, adminTokenDigests: latest });
    }
    return service;
  };
  return {
    ...service,
    authenticate: headers => current().authenticate(headers),
    authenticateToken: token => current().authenticateToken(token),
    checkIdentity: identity => current().checkIdentity(identity),
  };
}
