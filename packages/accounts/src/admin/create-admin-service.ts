import { keyLimitCeiling, type KeyLimits } from '../keys/key-limits';
import type { Account, AccountStore } from '../store/account-store';
import { adjustBalanceSchema, createAccountSchema, updateAccountSchema } from './admin-schemas';
import type { ConsoleIdentity } from './console-identity';
import { routeOpenTo, type ConsoleRoute } from './console-route';
import { found, maySee, notFound, parseInput, requireAdmin } from './console-scope';
import { createConfigMethods, type ConfigEditing } from '../config/create-config-methods';
import { createAuditMethods } from './create-audit-methods';
import { createConsoleAuthenticator } from './create-console-authenticator';
import { createAlertMethods, type ConsoleAlert } from './create-alert-methods';
import { createBudgetMethods } from './create-budget-methods';
import { createConsoleTokenMethods } from './create-console-token-methods';
import { createKeyMethods, withoutUndefined } from './create-key-methods';
import { createUpstreamMethods } from './create-upstream-methods';
import { createUsageMethods } from './create-usage-methods';
import type { ConsoleUpstreams } from './console-upstream';
import { presentAccount, presentConsoleToken } from './present-admin-records';
import { refuseCeilingBelowKeys } from './refuse-ceiling-below-keys';

export type AdminServiceOptions = {
  store: AccountStore;
  /** SHA-256 digests (hex, from `digestAdminToken`) of the admin tokens that open everything. */
  adminTokenDigests: readonly string[];
  /**
   * The gateway's routes, for `listRoutes` (`gateway.consoleRoutes` from `@signalbox/express`).
   * Called on each listing. Default: none.
   */
  routes?: () => readonly ConsoleRoute[];
  /**
   * The gateway's `limits.default` (`gateway.defaultKeyLimits` from `@signalbox/express`): the most
   * an account console token may give its keys' limits where its account has no `keyLimitCeiling`.
   * Default: none, as the gateway's own default.
   */
  defaultKeyLimits?: KeyLimits;
  /** The clock console token expiry and summary ranges are judged by. Default `Date.now`. */
  now?: () => number;
  /**
   * The gateway's upstreams and their credentials' health, for `listUpstreams` and `enableCredential`
   * (`gateway.consoleUpstreams` from `@signalbox/express`). Default: none.
   */
  upstreams?: ConsoleUpstreams;
  /** The alerts whose condition holds now (`Alerts.activeAlerts` from `@signalbox/engine`), for `listAlerts`. Default: none. */
  alerts?: () => readonly ConsoleAlert[];
  /**
   * The live configuration (routes, upstreams, prices) and how it is edited, from the host that knows
   * the gateway's schema (`createConfigEditing` in `@signalbox/engine`). Default: none (404).
   */
  config?: ConfigEditing;
};

export type AdminService = ReturnType<typeof createAdminService>;

/**
 * Key, account, console token and usage management without a web framework: what the admin JSON
 * API, the CLI and the panel call. Every method but the authentication ones takes the caller's
 * `ConsoleIdentity` (from `authenticate`, or `ADMIN_IDENTITY` for the operator's own tools) and
 * answers only what it may see: an account identity reads and manages its own account's keys,
 * usage and balance events; another account's records answer 404 exactly as missing ones do; what
 * only the operator may do (accounts, balances, console tokens, and on keys what would give them
 * more than their account may: see `createKeyMethods`) is a 403 `ADMIN_TOKEN_REQUIRED` naming the
 * field. Inputs are validated (400 naming the field); secrets appear only in the answers that create them.
 */
export function createAdminService(options: AdminServiceOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;
  const defaultKeyLimits = options.defaultKeyLimits ?? {};
  const routes = options.routes ?? (() => []);
  const authenticator = createConsoleAuthenticator({ store, adminTokenDigests: options.adminTokenDigests, now });
  const audit = createAuditMethods({ store, now });
  const { recordAudit } = audit;
  const accountEntity = (id: string) => ({ type: 'account', id, accountId: id });
  const presentAccountWithBudgets = async (account: Account) => presentAccount(account, await store.listBudgets(account.id));
  return {
    /** `Authorization: Bearer <admin token | account console token>` → the identity; 401 otherwise (an API key is refused by name). */
    authenticate: authenticator.authenticate,
    /** The same for a token given directly (a panel's login form). */
    authenticateToken: authenticator.authenticateToken,
    /** The identity again if its token still opens the console (not disabled or expired since), else 401. */
    checkIdentity: authenticator.checkIdentity,

    /**
     * Who the identity is: `{ kind: 'admin' }`, or its account, the console token it used and the
     * most its keys' limits may be (`keyLimitCeiling`: `limits.default` overlaid by the account's own).
     */
    async me(identity: ConsoleIdentity) {
      if (identity.kind === 'admin') return { kind: 'admin' as const, account: null, token: null, keyLimitCeiling: null };
      const account = found(await store.getAccount(identity.accountId), 'account');
      const token = (await store.listConsoleTokens(identity.accountId)).find(candidate => candidate.id === identity.tokenId);
      return {
        kind: 'account' as const,
        role: identity.role,
        account: presentAccount(account, await store.listBudgets(account.id)),
        token: token ? presentConsoleToken(token) : null,
        keyLimitCeiling: keyLimitCeiling(defaultKeyLimits, account),
      };
    },

    /**
     * The model routes with their exact IDs, interfaces, pricing, context size and upstream
     * protocol, in config order. An account identity gets those its account or one of its keys may
     * use (by group), without the group lists.
     */
    async listRoutes(identity: ConsoleIdentity): Promise<{ data: (Omit<ConsoleRoute, 'groups'> & { groups?: ConsoleRoute['groups'] })[] }> {
      const all = routes();
      if (identity.kind === 'admin') return { data: all.map(route => ({ ...route })) };
      const groups = [
        (await store.getAccount(identity.accountId))?.group,
        ...(await store.listKeys(identity.accountId)).map(key => key.group),
      ];
      const usable = all.filter(route => groups.some(group => routeOpenTo(route, group)));
      return { data: usable.map(({ groups: _groups, ...route }) => route) };
    },

    /** Every account for the admin; an account identity's own only. */
    async listAccounts(identity: ConsoleIdentity) {
      const accounts = identity.kind === 'admin' ? await store.listAccounts() : [await store.getAccount(identity.accountId)];
      return { data: await Promise.all(accounts.filter(account => account !== undefined).map(presentAccountWithBudgets)) };
    },
    async getAccount(identity: ConsoleIdentity, id: string) {
      if (!maySee(identity, id)) throw notFound('account');
      return presentAccountWithBudgets(found(await store.getAccount(id), 'account'));
    },
    /** Admin only. Body: `{ name, balance?, subscription?, group?, keyLimitCeiling? }`. */
    async createAccount(identity: ConsoleIdentity, body: unknown) {
      requireAdmin(identity, 'create accounts');
      const { balance, ...input } = parseInput(createAccountSchema, body);
      const account = presentAccount(await store.createAccount({ ...withoutUndefined(input), balanceMicros: Math.round(balance * 1_000_000) }), []);
      await recordAudit(identity, accountEntity(account.id), 'create', undefined, account);
      return account;
    },
    /**
     * Admin only. Body: any of `{ name, subscription, group, keyLimitCeiling }` (`null` clears the
     * ceiling). A ceiling one of the account's keys would newly exceed is a 409 `KEY_LIMITS_ABOVE_CEILING`.
     */
    async updateAccount(identity: ConsoleIdentity, id: string, body: unknown) {
      requireAdmin(identity, 'change accounts');
      const { keyLimitCeiling: ceiling, ...patch } = parseInput(updateAccountSchema, body);
      const account = found(await store.getAccount(id), 'account');
      if (ceiling !== undefined) refuseCeilingBelowKeys(defaultKeyLimits, account, ceiling ?? undefined, await store.listKeys(id));
      const changed = ceiling === undefined ? patch : { ...patch, keyLimitCeiling: ceiling ?? undefined };
      const budgets = await store.listBudgets(id);
      const updated = presentAccount(found(await store.updateAccount(id, changed), 'account'), budgets);
      await recordAudit(identity, accountEntity(id), 'update', presentAccount(account, budgets), updated);
      return updated;
    },
    /** Admin only. Body: `{ delta }` in currency units, negative to take away. */
    async adjustBalance(identity: ConsoleIdentity, id: string, body: unknown) {
      requireAdmin(identity, 'change balances');
      const { delta } = parseInput(adjustBalanceSchema, body);
      const before = found(await store.getAccount(id), 'account');
      const budgets = await store.listBudgets(id);
      const adjusted = presentAccount(found(await store.adjustBalance(id, Math.round(delta * 1_000_000)), 'account'), budgets);
      await recordAudit(identity, accountEntity(id), 'adjust-balance', presentAccount(before, budgets), adjusted);
      return adjusted;
    },

    ...createKeyMethods({ store, defaultKeyLimits, routes, recordAudit }),
    ...createConsoleTokenMethods({ store, recordAudit }),

    ...createBudgetMethods(store, recordAudit),

    ...createUsageMethods({ store, now }),

    ...createUpstreamMethods(options.upstreams, recordAudit),

    ...createAlertMethods(store, options.alerts),
    ...createConfigMethods(options.config, now, recordAudit),

    ...audit,
  };
}
