import { ensureDemoKey } from './ensure-demo-key';
import type { Storage } from './open-storage';

/** The secrets a start created, each to be shown once: a data folder's first admin token, a generated demo key. */
export type FirstStartSecrets = { adminToken?: string; demoKey?: string };

/**
 * Creates what a first start must show once: the data folder's admin token, then a demo key when
 * the store has none (or adopts `givenDemoKey`). Run once the server listens, so that a start that
 * fails before (a busy port, a bad setting) creates no secret nobody sees. Whatever was created is
 * handed to `show` even when a later step throws.
 */
export async function createFirstStartSecrets(
  storage: Pick<Storage, 'store' | 'createAdminToken'>,
  givenDemoKey: string | undefined,
  show: (secrets: FirstStartSecrets) => void,
): Promise<FirstStartSecrets> {
  const secrets: FirstStartSecrets = {};
  try {
    const adminToken = storage.createAdminToken?.();
    if (adminToken !== undefined) secrets.adminToken = adminToken;
    const demoKey = await ensureDemoKey(storage.store, givenDemoKey);
    if (demoKey !== undefined) secrets.demoKey = demoKey;
    return secrets;
  } finally {
    if (secrets.adminToken !== undefined || secrets.demoKey !== undefined) show(secrets);
  }
}
