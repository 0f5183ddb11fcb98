import { createAdminService, type AccountStore, type AdminService } from '@switchyard/accounts';

/**
 * An admin service whose console tokens can change while it runs: `authenticate` checks against
 * whatever `currentDigests()` returns at that moment (see `watchAdminTokenFile`, which returns the
 * same array until the file changes, so the service is rebuilt only on a rotation).
 */
export function createReloadingAdminService(store: AccountStore, currentDigests: () => readonly string[]): AdminService {
  let digests = currentDigests();
  let service = createAdminService({ store, adminTokenDigests: digests });
  return {
    ...service,
    authenticate(headers) {
      const latest = currentDigests();
      if (latest !== digests) {
        digests = latest;
        service = createAdminService({ store, adminTokenDigests: latest });
      }
      service.authenticate(headers);
    },
  };
}
