import type { KeyLimits } from '../keys/key-limits';
import type { AccountStore, ApiKeyPatch, ApiKeyRecord } from '../store/account-store';
import { authorizeKeyPatch, authorizeNewKey, disabledByAfter, type KeyChangeContext } from './authorize-key-change';
import { createKeySchema, updateKeySchema } from './admin-schemas';
import type { ConsoleIdentity } from './console-identity';
import type { ConsoleRoute } from './console-route';
import { found, maySee, notFound, parseInput, requireOwner, scopedAccountId } from './console-scope';
import type { AuditedEntity, RecordAudit } from './create-audit-methods';
import { presentKey } from './present-admin-records';

export type KeyMethodsOptions = {
  store: AccountStore;
  /** Records each change in the audit log. */
  recordAudit: RecordAudit;
  /** The gateway's `limits.default`: an account's keys' ceiling where the account sets none. */
  defaultKeyLimits: KeyLimits;
  /** The gateway's routes: which models an account may name on its keys. */
  routes: () => readonly ConsoleRoute[];
};

/**
 * API keys as the console manages them. The admin sets anything on any key; an account identity
 * sees only its own account's keys and may set on them only what `authorizeNewKey` and
 * `authorizeKeyPatch` allow (never more than its account may), else 403 `ADMIN_TOKEN_REQUIRED`.
 */
export function createKeyMethods(options: KeyMethodsOptions) {
  const { store, recordAudit } = options;
  const entity = (key: ApiKeyRecord): AuditedEntity => ({ type: 'key', id: key.id, accountId: key.accountId });
  const contextFor = async (accountId: string): Promise<KeyChangeContext> => ({
    account: found(await store.getAccount(accountId), 'account'),
    defaultKeyLimits: options.defaultKeyLimits,
    routes: options.routes(),
  });
  return {
    /** Keys (prefixes only), of one account when `accountId` is given; an account identity's own only. */
    async listKeys(identity: ConsoleIdentity, accountId?: string) {
      const scoped = scopedAccountId(identity, accountId);
      return { data: scoped === null ? [] : (await store.listKeys(scoped)).map(presentKey) };
    },
    /**
     * Body: `{ accountId, name, expiresAt?, group?, allowedModels?, limits? }`; an account identity
     * may leave out `accountId` (its own). Returns `{ secret, key }`: the only time the secret is shown.
     */
    async createKey(identity: ConsoleIdentity, body: unknown) {
      requireOwner(identity, 'create keys');
      const input = parseInput(createKeySchema, withAccountOf(identity, body));
      if (!maySee(identity, input.accountId)) throw notFound('account');
      const context = await contextFor(input.accountId);
      if (identity.kind === 'account') authorizeNewKey(context, input);
      const { secret, key } = await store.createKey(withoutUndefined(input));
      const presented = presentKey(key);
      await recordAudit(identity, entity(key), 'create', undefined, presented);
      return { secret, key: presented };
    },
    /** Body: any of `{ name, status, expiresAt, group, allowedModels, limits }` (`null` clears). */
    async updateKey(identity: ConsoleIdentity, id: string, body: unknown) {
      requireOwner(identity, 'change keys');
      const patch = parseInput(updateKeySchema, body);
      const key = await store.getKey(id);
      if (!key || !maySee(identity, key.accountId)) throw notFound('key');
      const context = identity.kind === 'account' ? await contextFor(key.accountId) : undefined;
      // Judged again on the key as stored, under the store's write lock: a disable by the operator
      // that lands between the read above and this write is never undone by it.
      let before = key;
      const updated = await store.updateKey(id, current => {
        before = current;
        if (context) authorizeKeyPatch(context, current, patch);
        return toStorePatch(identity, current, patch);
      });
      const presented = presentKey(found(updated, 'key'));
      await recordAudit(identity, entity(before), 'update', presentKey(before), presented);
      return presented;
    },
  };
}

/** The admin schema's patch as the store takes it: `null` as `undefined` (cleared), and who disabled the key. */
function toStorePatch(identity: ConsoleIdentity, key: ApiKeyRecord, patch: Record<string, unknown> & { status?: ApiKeyRecord['status'] }): ApiKeyPatch {
  const cleaned = Object.fromEntries(Object.entries(patch).map(([name, value]) => [name, value ?? undefined])) as ApiKeyPatch;
  const disabledBy = disabledByAfter(identity, key, patch.status);
  return disabledBy ? { ...cleaned, disabledBy } : cleaned;
}

/** A body that leaves out `accountId` gets the account identity's own (the admin must name one). */
export function withAccountOf(identity: ConsoleIdentity, body: unknown): unknown {
  return identity.kind === 'account' && isObject(body) && !('accountId' in body) ? { ...body, accountId: identity.accountId } : body;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value without its `undefined` members. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
