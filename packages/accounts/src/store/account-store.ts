import type { AlertDeliveryLog } from '../alerts/alert-delivery-log';
import type { AuditLog } from '../audit/audit-log';
import type { Budget, BudgetChange } from '../budgets/budget';
import type { ConfigVersionStore } from '../config/config-version-store';
import type { ConsoleTokenStore } from '../console/console-token-store';
import type { ResponseStore } from '../conversations/response-store';
import type { KeyLimits } from '../keys/key-limits';
import type { UsageLedger } from '../usage/usage-ledger';

/** An account: who pays. Money is integer micro-units (1 000 000 = one currency unit). */
export type Account = {
  id: string;
  name: string;
  balanceMicros: number;
  /** Money held by requests in flight; `balanceMicros - reservedMicros` is what new requests may use. */
  reservedMicros: number;
  subscription: 'active' | 'inactive';
  group?: string;
  /**
   * Set only by the operator: the most an account console token may give this account's keys, and
   * what they run with where their own limits say nothing (over the gateway's `limits.default`,
   * member by member; see `keyLimitCeiling`).
   */
  keyLimitCeiling?: KeyLimits;
  createdAt: number;
};

/** Who disabled a key: the operator (admin token, CLI) or its account (an account console token). */
export type KeyDisabledBy = 'operator' | 'account';

/** What the gateway knows about one API key; never the key itself. */
export type ApiKeyRecord = {
  id: string;
  accountId: string;
  name: string;
  /** The visible start of the key (`sbx-AbCdEfGh`), safe to show in panels and logs. */
  prefix: string;
  status: 'active' | 'disabled';
  /**
   * Who disabled it, while `status` is `'disabled'` (a key made active again forgets it): an
   * account may enable again only a key it disabled itself. A disabled key without it counts as
   * disabled by the operator.
   */
  disabledBy?: KeyDisabledBy;
  /** Expiry, unix milliseconds. */
  expiresAt?: number;
  /** Overrides the account's group for this key. */
  group?: string;
  /** Exact model IDs this key may call; absent means every route its group may use. */
  allowedModels?: readonly string[];
  limits?: KeyLimits;
  createdAt: number;
};

export type NewAccount = {
  name: string;
  balanceMicros?: number;
  subscription?: Account['subscription'];
  group?: string;
  keyLimitCeiling?: KeyLimits;
};

export type NewApiKey = Omit<ApiKeyRecord, 'id' | 'prefix' | 'createdAt' | 'status'> & {
  status?: ApiKeyRecord['status'];
  /**
   * Adopt this secret instead of generating one (a demo key given in the environment). It must
   * have the gateway's key shape (`looksLikeApiKey`); it is hashed like any other and not kept.
   */
  secret?: string;
};

export type ApiKeyPatch = Partial<Omit<ApiKeyRecord, 'id' | 'accountId' | 'prefix' | 'createdAt'>>;
/**
 * A key patch, or a function that makes one from the key as stored: the store calls it under the
 * same lock as the write, so a decision it makes (who may enable the key) cannot be overtaken by a
 * concurrent change; a throw leaves the key unchanged and rejects `updateKey` with it.
 */
export type ApiKeyChange = ApiKeyPatch | ((current: ApiKeyRecord) => ApiKeyPatch);
export type AccountPatch = Partial<Pick<Account, 'name' | 'subscription' | 'group' | 'keyLimitCeiling'>>;

/**
 * Money held for one request until its real cost is known. A hold is released by its request's
 * `settle`; if that never comes (the process died, or the request outlived its deadline), the store
 * releases it without charge once `expiresAt` has passed, and at once when it can tell that the
 * process that owns it (`ownerId`) is gone.
 */
export type Reservation = {
  id: string;
  accountId: string;
  amountMicros: number;
  /** Unix milliseconds after which the hold may be released without charge. */
  expiresAt: number;
  /** The store instance (one per process boot) whose request holds it. */
  ownerId: string;
  /** The key whose request holds it: it counts against that key's budgets as well as its account's. */
  keyId?: string;
};

/** How long a hold may live when `reserve` is given no expiry: one hour. */
export const DEFAULT_HOLD_LIFETIME_MS = 60 * 60 * 1000;

/** How often a store releases expired holds while it is open, unless told otherwise: once a minute. */
export const DEFAULT_HOLD_SWEEP_INTERVAL_MS = 60 * 1000;

/**
 * The longest a store that caches keys (and balances) goes on using a row that another process or
 * instance changed, unless told otherwise (`cacheRefreshMs`): one second.
 */
export const DEFAULT_CACHE_REFRESH_MS = 1000;

/** What `reserve` may be told about a hold besides its amount. */
export type HoldOptions = {
  /** Unix milliseconds; default the store's clock plus `DEFAULT_HOLD_LIFETIME_MS`. */
  expiresAt?: number;
  /** The key making the request: its budgets (and its account's) must allow the hold too. */
  keyId?: string;
};

/** The holds a store has now, for metrics (`AccountStore.holdTotals`). */
export type HoldTotals = {
  count: number;
  amountMicros: number;
  /** Unix milliseconds of the hold that expires first; `undefined` when there is none. */
  earliestExpiresAt: number | undefined;
};

/** What `settle` did with a hold it still had. */
export type Settled = {
  /** What the balance was charged: the cost, but never more than the hold nor below a zero balance. */
  chargedMicros: number;
  /** The part of the cost that was not charged. */
  uncoveredMicros: number;
};

/**
 * Keys and accounts, behind one interface so the gateway runs on any store: memory
 * (`createMemoryAccountStore`, for tests) or SQLite (`@signalbox/store-sqlite`, one machine, one or
 * several processes sharing the file). Implementations must:
 * - store keys only as `hashApiKey(secret)` digests plus the visible prefix, and compare in constant time;
 * - make `reserve` atomic: concurrent requests can never together hold more than the balance, nor
 *   more than any budget of the account or the key allows (its limit less its period's charges);
 * - never take a balance below zero in `settle`, and never charge more than was held;
 * - release holds nobody will settle (expired, or owned by a process that is gone) without charge:
 *   on `releaseExpiredHolds`, on a timer while open (stopped by `close`), and at open;
 * - keep stored conversations as `ResponseStore` says;
 * - keep the usage ledger as `UsageLedger` says: a charge with its row, a balance change with its
 *   event, each pair in one transaction;
 * - keep account console tokens as `ConsoleTokenStore` says (digests only, like keys);
 * - keep the alert delivery log (`AlertDeliveryLog`);
 * - show a change made through the store (a key disabled, expired or re-scoped, a top-up, a
 *   subscription ended) to its very next call; a store that caches rows may show a change made by
 *   another process later, but never later than a bound it states (the SQLite store's
 *   `cacheRefreshMs`), so a key disabled from the CLI stops working within that bound;
 * - return copies, never live objects.
 */
export interface AccountStore extends ResponseStore, UsageLedger, ConsoleTokenStore, AlertDeliveryLog, AuditLog {
  /** Creates the account and its `opening` balance event together. */
  createAccount(input: NewAccount): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  /**
   * The account as a request's authentication reads it, where a store can keep it: its name,
   * subscription, group and ceiling as `getAccount` shows them, its balance and holds possibly a
   * little older (a hold checks them again). The engine then reads `getAccount` alongside the
   * request's admission and confirms it before the upstream call. Absent: `getAccount` is read first.
   */
  getAccountForRequest?(id: string): Promise<Account | undefined>;
  /**
   * The account's current row, as `getAccount` reads it, for the confirmation of a request admitted
   * with `getAccountForRequest`: calls for one account made while its read is in flight may share
   * that read (never one that already answered). Absent: the engine confirms with `getAccount`.
   */
  confirmAccountForRequest?(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  updateAccount(id: string, patch: AccountPatch): Promise<Account | undefined>;
  /**
   * Adds `deltaMicros` (negative to remove) to the balance and records it as a `top-up` (positive)
   * or `adjustment` (negative) balance event in the same transaction; a zero delta records nothing.
   */
  adjustBalance(id: string, deltaMicros: number): Promise<Account | undefined>;

  /** Creates a key and returns its secret: the only time the secret exists outside the caller. */
  createKey(input: NewApiKey): Promise<{ secret: string; key: ApiKeyRecord }>;
  /** The key whose secret this is, or `undefined`. */
  findKeyBySecret(secret: string): Promise<ApiKeyRecord | undefined>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  /** Applies the change (a member given as `undefined` clears it); a key that ends up active has no `disabledBy`. */
  updateKey(id: string, change: ApiKeyChange): Promise<ApiKeyRecord | undefined>;

  /**
   * Holds `amountMicros` of the account's available balance, or `undefined` when it is not there or
   * a budget of the account (or of `hold.keyId`) would be exceeded: its period's charges plus its
   * holds plus this one above its limit. The hold is owned by this store instance and expires at
   * `hold.expiresAt`; its charge at `settle` counts against those budgets in the period it is made in.
   */
  reserve(accountId: string, amountMicros: number, hold?: HoldOptions): Promise<Reservation | undefined>;
  /**
   * Sets, changes or (with `limitMicros: null`) removes one budget and returns every budget of its
   * owner (the account, or the key); `undefined` when the account, or the key in that account, is
   * unknown. A new budget starts from what the owner's ledger rows charged in the current period.
   */
  setBudget(change: BudgetChange): Promise<Budget[] | undefined>;
  /** Every budget of the account and of its keys, with its current period's charges and holds. */
  listBudgets(accountId: string): Promise<Budget[]>;
  /**
   * Releases a reservation and charges the real cost, capped at the hold and at what the balance
   * has (it never goes below zero). `undefined` when the hold was already settled or released: a
   * second `settle` charges nothing.
   */
  settle(reservation: Reservation, costMicros: number): Promise<Settled | undefined>;
  /**
   * Releases, without charge, every hold whose expiry is at or before `now` (and, where the store
   * can tell, every hold whose owning process is gone); returns how many it released.
   */
  releaseExpiredHolds(now: number): Promise<number>;
  /**
   * How many holds the store has now and what they add up to, for metrics: every instance's holds
   * where they are shared (a database table), this process's where they are kept in memory. One
   * cheap aggregate; optional, since a store that cannot tell cheaply leaves it out.
   */
  holdTotals?(): Promise<HoldTotals>;

  /**
   * Resolves when the store can answer now (its database reachable and open), rejects otherwise:
   * what a readiness probe asks. Cheap: one round trip at most.
   */
  ping(): Promise<void>;
  close(): Promise<void>;

  /** Versions of the live configuration (routes, upstreams, prices), for a gateway whose config lives in the store. */
  readonly configVersions?: ConfigVersionStore;
}
