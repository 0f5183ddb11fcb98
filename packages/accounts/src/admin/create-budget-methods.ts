import { GatewayError, invalidParameter } from '@signalbox/core';
import type { AccountStore } from '../store/account-store';
import { setBudgetSchema } from './admin-schemas';
import type { ConsoleIdentity } from './console-identity';
import { found, maySee, notFound, parseInput, requireOwner, scopedAccountId } from './console-scope';
import type { RecordAudit } from './create-audit-methods';
import { presentBudget } from './present-budget';

/**
 * Budgets as the console manages them. The admin sets any; an account identity sees its own
 * account's and sets, changes or removes its own keys' (its account's own budget is the operator's,
 * like its balance: 403 `ADMIN_TOKEN_REQUIRED` naming `keyId`); a viewer only reads them. Each
 * change is audited once.
 */
export function createBudgetMethods(store: AccountStore, recordAudit: RecordAudit) {
  return {
    /** Budgets of one account and its keys (an account identity's own); every account's for the admin without `accountId`. */
    async listBudgets(identity: ConsoleIdentity, accountId?: string) {
      const scoped = scopedAccountId(identity, accountId);
      if (scoped === null) return { data: [] };
      const accountIds = scoped === undefined ? (await store.listAccounts()).map(account => account.id) : [scoped];
      const budgets = (await Promise.all(accountIds.map(id => store.listBudgets(id)))).flat();
      return { data: budgets.map(presentBudget) };
    },
    /**
     * Body: `{ accountId?, keyId?, period: 'day' | 'month', limit }` (currency units; `null` removes
     * it). With `keyId` the key's budget, else the account's own. Returns the owner's budgets.
     */
    async setBudget(identity: ConsoleIdentity, body: unknown) {
      requireOwner(identity, 'change budgets');
      const input = parseInput(setBudgetSchema, body);
      const accountId = await ownerAccount(store, identity, input);
      const limitMicros = input.limit === null ? null : Math.round(input.limit * 1_000_000);
      const ownerKeyId = input.keyId;
      const ownerOf = (budget: { keyId?: string }) => budget.keyId === ownerKeyId;
      const before = (await store.listBudgets(accountId)).filter(ownerOf).map(presentBudget);
      const budgets = await store.setBudget({ accountId, ...(ownerKeyId !== undefined && { keyId: ownerKeyId }), period: input.period, limitMicros });
      const after = found(budgets, ownerKeyId === undefined ? 'account' : 'key').map(presentBudget);
      await recordAudit(identity, { type: 'budget', id: `${ownerKeyId ?? accountId}:${input.period}`, accountId }, limitMicros === null ? 'remove' : 'set', before, after);
      return { data: after };
    },
  };
}

/** The account whose budget the input names, once the identity may set it. */
async function ownerAccount(store: AccountStore, identity: ConsoleIdentity, input: { accountId?: string | undefined; keyId?: string | undefined }): Promise<string> {
  if (input.keyId !== undefined) {
    const key = await store.getKey(input.keyId);
    if (!key || !maySee(identity, key.accountId) || (input.accountId !== undefined && input.accountId !== key.accountId)) throw notFound('key');
    return key.accountId;
  }
  if (identity.kind === 'account') {
    throw new GatewayError({
      code: 'ADMIN_TOKEN_REQUIRED',
      message: "Only the admin token may set an account's own budget; this console token may set its keys' budgets (give keyId).",
      param: 'keyId',
    });
  }
  if (input.accountId === undefined) throw invalidParameter('accountId', 'Name the account (accountId) or the key (keyId) whose budget to set.');
  return input.accountId;
}
