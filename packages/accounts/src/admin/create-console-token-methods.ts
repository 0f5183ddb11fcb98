import type { AccountStore } from '../store/account-store';
import { createConsoleTokenSchema, updateConsoleTokenSchema } from './admin-schemas';
import type { ConsoleIdentity } from './console-identity';
import { found, maySee, notFound, parseInput, requireOwner, scopedAccountId } from './console-scope';
import type { AuditedEntity, RecordAudit } from './create-audit-methods';
import { withAccountOf, withoutUndefined } from './create-key-methods';
import { presentConsoleToken } from './present-admin-records';

export type ConsoleTokenMethodsOptions = {
  store: AccountStore;
  recordAudit: RecordAudit;
};

/**
 * An account's members: its console tokens, each with a role. The admin manages every account's;
 * an account's owner its own account's (another account's answer 404 like missing ones); a viewer
 * lists them and changes nothing (403 `CONSOLE_ROLE_FORBIDDEN`).
 */
export function createConsoleTokenMethods(options: ConsoleTokenMethodsOptions) {
  const { store, recordAudit } = options;
  const entity = (token: { id: string; accountId: string }): AuditedEntity => ({ type: 'console-token', id: token.id, accountId: token.accountId });
  return {
    /**
     * Body: `{ accountId, name, role?, expiresAt? }` (`role` `owner` or `viewer`, default `owner`); an
     * account's owner may leave out `accountId`. Returns `{ secret, token }`: the only time the secret is shown.
     */
    async createConsoleToken(identity: ConsoleIdentity, body: unknown) {
      requireOwner(identity, 'create console tokens');
      const input = parseInput(createConsoleTokenSchema, withAccountOf(identity, body));
      if (!maySee(identity, input.accountId)) throw notFound('account');
      found(await store.getAccount(input.accountId), 'account');
      const { secret, token } = await store.createConsoleToken(withoutUndefined(input));
      const presented = presentConsoleToken(token);
      await recordAudit(identity, entity(token), 'create', undefined, presented);
      return { secret, token: presented };
    },
    /** Console tokens (prefixes only), of one account when `accountId` is given; an account identity's own only. */
    async listConsoleTokens(identity: ConsoleIdentity, accountId?: string) {
      const scoped = scopedAccountId(identity, accountId);
      return { data: scoped === null ? [] : (await store.listConsoleTokens(scoped)).map(presentConsoleToken) };
    },
    /** Body: any of `{ status: 'disabled' | 'active', role }`; a disabled token stops opening the console at once. */
    async updateConsoleToken(identity: ConsoleIdentity, id: string, body: unknown) {
      requireOwner(identity, 'change console tokens');
      const patch = parseInput(updateConsoleTokenSchema, body);
      const before = (await store.listConsoleTokens(identity.kind === 'account' ? identity.accountId : undefined)).find(token => token.id === id);
      if (!before) throw notFound('console token');
      const updated = presentConsoleToken(found(await store.updateConsoleToken(id, withoutUndefined(patch)), 'console token'));
      await recordAudit(identity, entity(before), 'update', presentConsoleToken(before), updated);
      return updated;
    },
  };
}
