import { GatewayError } from '@signalbox/core';
import type { AccountStore } from '../store/account-store';
import { createMemoryAccountStore } from '../store/create-memory-account-store';
import { ADMIN_IDENTITY } from './console-identity';
import { createAdminService } from './create-admin-service';

/** A memory store whose next `updateKey` first runs `beforeWrite`: another request landing between a read and its write. */
function createRacingStore() {
  const store = createMemoryAccountStore({ holdSweepIntervalMs: 0 });
  let beforeWrite: (() => Promise<unknown>) | undefined;
  const racing: AccountStore = {
    ...store,
    async updateKey(id, change) {
      const interleaved = beforeWrite;
      beforeWrite = undefined;
      await interleaved?.();
      return store.updateKey(id, change);
    },
  };
  return { store: racing, interleave: (work: () => Promise<unknown>) => void (beforeWrite = work) };
}

describe('key changes racing the operator', () => {
  async function setUp() {
    const { store, interleave } = createRacingStore();
    const admin = createAdminService({ store, adminTokenDigests: [] });
    const account = await admin.createAccount(ADMIN_IDENTITY, { name: 'B' });
    const { secret } = await admin.createConsoleToken(ADMIN_IDENTITY, { accountId: account.id, name: 'b' });
    const identity = await admin.authenticateToken(secret);
    return { admin, store, interleave, identity, accountId: account.id };
  }

  it('never lets an account’s “enable” overtake a disable by the operator that lands between its read and its write', async () => {
    const { admin, store, interleave, identity, accountId } = await setUp();
    const { key } = await admin.createKey(ADMIN_IDENTITY, { accountId, name: 'k' });
    interleave(() => admin.updateKey(ADMIN_IDENTITY, key.id, { status: 'disabled' }));
    const refusal = await admin.updateKey(identity, key.id, { status: 'active' }).catch((error: unknown) => error);
    expect(GatewayError.isInstance(refusal) && [refusal.code, refusal.param]).toEqual(['ADMIN_TOKEN_REQUIRED', 'status']);
    expect(await store.getKey(key.id)).toMatchObject({ status: 'disabled', disabledBy: 'operator' });
  });

  it('keeps the operator as who disabled a key when the account disables it in the same moment', async () => {
    const { admin, store, interleave, identity, accountId } = await setUp();
    const { key } = await admin.createKey(ADMIN_IDENTITY, { accountId, name: 'k' });
    interleave(() => admin.updateKey(ADMIN_IDENTITY, key.id, { status: 'disabled' }));
    expect(await admin.updateKey(identity, key.id, { status: 'disabled' })).toMatchObject({ status: 'disabled', disabledBy: 'operator' });
    expect(await store.getKey(key.id)).toMatchObject({ disabledBy: 'operator' });
  });
});
