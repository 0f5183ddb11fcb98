import { GatewayError, type ProtocolDescriptor } from '@signalbox/core';
import { createMemoryAccountStore, type Account, type AccountStore } from '@signalbox/accounts';
import { authenticate } from './authenticate';

const descriptor = {
  interfaceName: 'chat',
  generationPath: '/v1/chat/completions',
  modelsPath: '/v1/models',
  credential: { kind: 'bearer' },
} as unknown as ProtocolDescriptor;

const policy = { acceptedVersions: [], acceptBearer: true };

/** A store whose `getAccountForRequest` answers `seen` (as a store that keeps accounts might), counting its calls. */
async function storeWithRequestRead(seen: (account: Account) => Account) {
  const inner = createMemoryAccountStore();
  const account = await inner.createAccount({ name: 'a', balanceMicros: 1_000 });
  const { secret } = await inner.createKey({ accountId: account.id, name: 'k' });
  const calls = { request: 0, plain: 0 };
  const store: AccountStore = {
    ...inner,
    getAccount: async id => (calls.plain++, inner.getAccount(id)),
    getAccountForRequest: async id => {
      calls.request++;
      const found = await inner.getAccount(id);
      return found && seen(found);
    },
  };
  return { store, secret, calls };
}

const headers = (secret: string) => ({ authorization: `Bearer ${secret}` });

describe('authenticate', () => {
  it('takes the account from getAccountForRequest when the store has it, and judges the subscription it shows at once', async () => {
    const active = await storeWithRequestRead(account => account);
    const { principal, accountConfirmed } = await authenticate({ descriptor, headers: headers(active.secret), store: active.store, policy, now: 0 });
    expect(principal.account.name).toBe('a');
    await expect(accountConfirmed).resolves.toBeUndefined();
    expect(active.calls).toEqual({ request: 1, plain: 1 });

    const ended = await storeWithRequestRead(account => ({ ...account, subscription: 'inactive' }));
    const refusal = await authenticate({ descriptor, headers: headers(ended.secret), store: ended.store, policy, now: 0 }).catch((error: unknown) => error);
    expect(GatewayError.isInstance(refusal) && refusal.code).toBe('SUBSCRIPTION_INACTIVE');
  });

  it('reads the current account meanwhile: a subscription ended since the kept one was read refuses the confirmation', async () => {
    const store = await storeWithRequestRead(account => account);
    const { principal } = await authenticate({ descriptor, headers: headers(store.secret), store: store.store, policy, now: 0 });
    await store.store.updateAccount(principal.account.id, { subscription: 'inactive' });
    const kept = await storeWithKeptAccount(store.store, principal.account);
    const { accountConfirmed } = await authenticate({ descriptor, headers: headers(store.secret), store: kept, policy, now: 0 });
    const refusal = await accountConfirmed!.catch((error: unknown) => error);
    expect(GatewayError.isInstance(refusal) && refusal.code).toBe('SUBSCRIPTION_INACTIVE');
  });

  it('confirms with confirmAccountForRequest where the store has it: every request sharing one read is judged by its answer', async () => {
    const store = await storeWithRequestRead(account => account);
    let answer!: (account: Account | undefined) => void;
    const shared = new Promise<Account | undefined>(resolve => (answer = resolve));
    const confirming = { ...store.store, confirmAccountForRequest: jest.fn(() => shared) };
    const requests = await Promise.all(
      Array.from({ length: 4 }, () => authenticate({ descriptor, headers: headers(store.secret), store: confirming, policy, now: 0 })),
    );
    expect(confirming.confirmAccountForRequest).toHaveBeenCalledTimes(4);
    expect(store.calls.plain).toBe(0);
    const account = requests[0]!.principal.account;
    answer({ ...account, subscription: 'inactive' });
    const refusals = await Promise.all(requests.map(request => request.accountConfirmed!.catch((error: unknown) => error)));
    expect(refusals.map(refusal => GatewayError.isInstance(refusal) && refusal.code)).toEqual(['SUBSCRIPTION_INACTIVE', 'SUBSCRIPTION_INACTIVE', 'SUBSCRIPTION_INACTIVE', 'SUBSCRIPTION_INACTIVE']);

    const failing = { ...store.store, confirmAccountForRequest: async () => Promise.reject(new Error('database away')) };
    const failed = await authenticate({ descriptor, headers: headers(store.secret), store: failing, policy, now: 0 });
    await expect(failed.accountConfirmed).rejects.toThrow('database away');
  });

  it('reads the account with getAccount, once, from a store without getAccountForRequest', async () => {
    const store = createMemoryAccountStore();
    const account = await store.createAccount({ name: 'plain' });
    const { secret } = await store.createKey({ accountId: account.id, name: 'k' });
    const authenticated = await authenticate({ descriptor, headers: headers(secret), store, policy, now: 0 });
    expect(authenticated.principal.account).toEqual(account);
    expect(authenticated.accountConfirmed).toBeUndefined();
  });
});

/** `store` answering `getAccountForRequest` with `kept`, as a store that kept the account before a change would. */
async function storeWithKeptAccount(store: AccountStore, kept: Account): Promise<AccountStore> {
  return { ...store, getAccountForRequest: async () => kept };
}
