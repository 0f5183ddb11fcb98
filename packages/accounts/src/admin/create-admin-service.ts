import type { ApiKeyPatch, AccountStore } from '../store/account-store';
import {
  adjustBalanceSchema,
  createAccountSchema,
  createConsoleTokenSchema,
  createKeySchema,
  updateAccountSchema,
  updateConsoleTokenSchema,
  updateKeySchema,
} from './admin-schemas';
import type { ConsoleIdentity } from './console-identity';
import type { ConsoleRoute } from './console-route';
import { found, maySee, notFound, parseInput, requireAdmin, scopedAccountId } from './console-scope';
import { createConsoleAuthenticator } from './create-console-authenticator';
import { createUsageMethods } from './create-usage-methods';
import { presentAccount, presentConsoleToken, presentKey } from './present-admin-records';

export type AdminServiceOptions = {
  store: AccountStore;
  /** SHA-256 digests (hex, from `digestAdminToken`) of the admin tokens that open everything. */
  adminTokenDigests: readonly string[];
  /**
   * The gateway's routes, for `listRoutes` (`gateway.consoleRoutes` from `@signalbox/express`).
   * Called on each listing. Default: none.
   */
  routes?: () => readonly ConsoleRoute[];
  /** The clock console token expiry and summary ranges are judged by. Default `Date.now`. */
  now?: () => number;
};

export type AdminService = ReturnType<typeof createAdminService>;

/**
 * Key, account, console token and usage management without a web framework: what the admin JSON
 * API, the CLI and the panel call. Every method but the authentication ones takes the caller's
 * `ConsoleIdentity` (from `authenticate`, or `ADMIN_IDENTITY` for the operator's own tools) and
 * answers only what it may see: an account identity reads and manages its own account's keys,
 * usage and balance events; another account's records answer 404 exactly as missing ones do; what
 * only the operator may do (accounts, balances, console tokens) is a 403 `ADMIN_TOKEN_REQUIRED`.
 * Inputs are validated (400 naming the field); secrets appear only in the answers that create them.
 */
export function createAdminService(options: AdminServiceOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;
  const authenticator = createConsoleAuthenticator({ store, adminTokenDigests: options.adminTokenDigests, now });
  const ownKey = async (identity: ConsoleIdentity, id: string) => {
    const key = await store.getKey(id);
    return key && maySee(identity, key.accountId) ? key : undefined;
  };
  return {
    /** `Authorization: Bearer <admin token | account console token>` → the identity; 401 otherwise (an API key is refused by name). */
    authenticate: authenticator.authenticate,
    /** The same for a token given directly (a panel's login form). */
    authenticateToken: authenticator.authenticateToken,
    /** The identity again if its token still opens the console (not disabled or expired since), else 401. */
    checkIdentity: authenticator.checkIdentity,

    /** Who the identity is: `{ kind: 'admin' }`, or its account and the console token it used. */
    async me(identity: ConsoleIdentity) {
      if (identity.kind === 'admin') return { kind: 'admin' as const, account: null, token: null };
      const account = found(await store.getAccount(identity.accountId), 'account');
      const token = (await store.listConsoleTokens(identity.accountId)).find(candidate => candidate.id === identity.tokenId);
      return { kind: 'account' as const, account: presentAccount(account), token: token ? presentConsoleToken(token) : null };
    },

    /**
     * The model routes with their exact IDs, interfaces, pricing, context size and upstream
     * protocol, in config order. An account identity gets those its account or one of its keys may
     * use (by group), without the group lists.
     */
    async listRoutes(identity: ConsoleIdentity): Promise<{ data: (Omit<ConsoleRoute, 'groups'> & { groups?: ConsoleRoute['groups'] })[] }> {
      const routes = options.routes?.() ?? [];
      if (identity.kind === 'admin') return { data: routes.map(route => ({ ...route })) };
      const groups = new Set<string | undefined>([
        (await store.getAccount(identity.accountId))?.group,
        ...(await store.listKeys(identity.accountId)).map(key => key.group),
      ]);
      const usable = routes.filter(route => route.groups === null || route.groups.some(group => groups.has(group)));
      return { data: usable.map(({ groups: _groups, ...route }) => route) };
    },

    /** Every account for the admin; an account identity's own only. */
    async listAccounts(identity: ConsoleIdentity) {
      const accounts = identity.kind === 'admin' ? await store.listAccounts() : [await store.getAccount(identity.accountId)];
      return { data: accounts.filter(account => account !== undefined).map(presentAccount) };
    },
    async getAccount(identity: ConsoleIdentity, id: string) {
      if (!maySee(identity, id)) throw notFound('account');
      return presentAccount(found(await store.getAccount(id), 'account'));
    },
    /** Admin only. Body: `{ name, balance?, subscription?, group? }`. */
    async createAccount(identity: ConsoleIdentity, body: unknown) {
      requireAdmin(identity, 'create accounts');
      const input = parseInput(createAccountSchema, body);
      const account = await store.createAccount({
        name: input.name,
        balanceMicros: Math.round(input.balance * 1_000_000),
        subscription: input.subscription,
        ...(input.group !== undefined && { group: input.group }),
      });
      return presentAccount(account);
    },
    /** Admin only. Body: any of `{ name, subscription, group }`. */
    async updateAccount(identity: ConsoleIdentity, id: string, body: unknown) {
      requireAdmin(identity, 'change accounts');
      const patch = parseInput(updateAccountSchema, body);
      return presentAccount(found(await store.updateAccount(id, patch), 'account'));
    },
    /** Admin only. Body: `{ delta }` in currency units, negative to take away. */
    async adjustBalance(identity: ConsoleIdentity, id: string, body: unknown) {
      requireAdmin(identity, 'change balances');
      const { delta } = parseInput(adjustBalanceSchema, body);
      return presentAccount(found(await store.adjustBalance(id, Math.round(delta * 1_000_000)), 'account'));
    },

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
      const withAccount = identity.kind === 'account' && isObject(body) && !('accountId' in body) ? { ...body, accountId: identity.accountId } : body;
      const input = parseInput(createKeySchema, withAccount);
      if (!maySee(identity, input.accountId)) throw notFound('account');
      found(await store.getAccount(input.accountId), 'account');
      const { secret, key } = await store.createKey(withoutUndefined(input));
      return { secret, key: presentKey(key) };
    },
    /** Body: any of `{ name, status, expiresAt, group, allowedModels, limits }` (`null` clears). */
    async updateKey(identity: ConsoleIdentity, id: string, body: unknown) {
      const patch = parseInput(updateKeySchema, body);
      found(await ownKey(identity, id), 'key');
      const cleaned = Object.fromEntries(Object.entries(patch).map(([name, value]) => [name, value ?? undefined])) as ApiKeyPatch;
      return presentKey(found(await store.updateKey(id, cleaned), 'key'));
    },

    /** Admin only. Body: `{ accountId, name, expiresAt? }`. Returns `{ secret, token }`: the only time the secret is shown. */
    async createConsoleToken(identity: ConsoleIdentity, body: unknown) {
      requireAdmin(identity, 'create console tokens');
      const input = parseInput(createConsoleTokenSchema, body);
      found(await store.getAccount(input.accountId), 'account');
      const { secret, token } = await store.createConsoleToken(withoutUndefined(input));
      return { secret, token: presentConsoleToken(token) };
    },
    /** Admin only. Account console tokens (prefixes only), of one account when `accountId` is given. */
    async listConsoleTokens(identity: ConsoleIdentity, accountId?: string) {
      requireAdmin(identity, 'list console tokens');
      return { data: (await store.listConsoleTokens(accountId)).map(presentConsoleToken) };
    },
    /** Admin only. Body: `{ status: 'disabled' | 'active' }`; a disabled token stops opening the console at once. */
    async updateConsoleToken(identity: ConsoleIdentity, id: string, body: unknown) {
      requireAdmin(identity, 'change console tokens');
      const patch = parseInput(updateConsoleTokenSchema, body);
      return presentConsoleToken(found(await store.updateConsoleToken(id, patch), 'console token'));
    },

    ...createUsageMethods({ store, now }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
