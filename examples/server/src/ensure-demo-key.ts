import type { AccountStore } from '@signalbox/accounts';

/** Opening balance of the demo account, in micro-units (1 000 currency units). */
const DEMO_BALANCE_MICROS = 1_000 * 1_000_000;

/**
 * Makes sure a demo key exists. A key given in the environment is adopted (and never printed);
 * otherwise, on a store with no keys yet, one is created and returned so it can be shown once.
 */
export async function ensureDemoKey(store: AccountStore, givenKey: string | undefined): Promise<string | undefined> {
  if (givenKey !== undefined && (await store.findKeyBySecret(givenKey))) return undefined;
  if (givenKey === undefined && (await store.listKeys()).length > 0) return undefined;
  const account =
    (await store.listAccounts()).find(candidate => candidate.name === 'demo') ??
    (await store.createAccount({ name: 'demo', balanceMicros: DEMO_BALANCE_MICROS }));
  const { secret } = await store.createKey({
    accountId: account.id,
    name: 'demo',
    ...(givenKey !== undefined && { secret: givenKey }),
  });
  return givenKey === undefined ? secret : undefined;
}
