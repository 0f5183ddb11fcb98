import { createMemoryAccountStore, generateApiKey, type AccountStore } from '@signalbox/accounts';

/** A memory store with one funded account and one key for it; the key is generated at run time. */
export async function createKeyedStore(): Promise<{ store: AccountStore; key: string }> {
  const store = createMemoryAccountStore();
  const key = generateApiKey();
  const account = await store.createAccount({ name: 'host', balanceMicros: 10_000_000 });
  await store.createKey({ accountId: account.id, name: 'host', secret: key });
  return { store, key };
}
