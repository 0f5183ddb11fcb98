import type { KeyLimits } from '../keys/key-limits';

/** An account: who pays. Money is integer micro-units (1 000 000 = one currency unit). */
export type Account = {
  id: string;
  name: string;
  balanceMicros: number;
  /** Money held by requests in flight; `balanceMicros - reservedMicros` is what new requests may use. */
  reservedMicros: number;
  subscription: 'active' | 'inactive';
  group?: string;
  createdAt: number;
};

/** What the gateway knows about one API key; never the key itself. */
export type ApiKeyRecord = {
  id: string;
  accountId: string;
  name: string;
  /** The visible start of the key (`sy-AbCdEfGh`), safe to show in panels and logs. */
  prefix: string;
  status: 'active' | 'disabled';
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
export type AccountPatch = Partial<Pick<Account, 'name' | 'subscription' | 'group'>>;

/** Money held for one request until its real cost is known. */
export type Reservation = { id: string; accountId: string; amountMicros: number };

/**
 * Keys and accounts, behind one interface so the gateway runs on any store: memory
 * (`createMemoryAccountStore`, for tests) or SQLite (`@switchyard/store-sqlite`, one machine, one or
 * several processes sharing the file). Implementations must:
 * - store keys only as `hashApiKey(secret)` digests plus the visible prefix, and compare in constant time;
 * - make `reserve` atomic: concurrent requests can never together hold more than the balance;
 * - return copies, never live objects.
 */
export interface AccountStore {
  createAccount(input: NewAccount): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  updateAccount(id: string, patch: AccountPatch): Promise<Account | undefined>;
  /** Adds `deltaMicros` (negative to remove) to the balance. */
  adjustBalance(id: string, deltaMicros: number): Promise<Account | undefined>;

  /** Creates a key and returns its secret: the only time the secret exists outside the caller. */
  createKey(input: NewApiKey): Promise<{ secret: string; key: ApiKeyRecord }>;
  /** The key whose secret this is, or `undefined`. */
  findKeyBySecret(secret: string): Promise<ApiKeyRecord | undefined>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  updateKey(id: string, patch: ApiKeyPatch): Promise<ApiKeyRecord | undefined>;

  /** Holds `amountMicros` of the account's available balance, or `undefined` when it is not there. */
  reserve(accountId: string, amountMicros: number): Promise<Reservation | undefined>;
  /** Releases a reservation and charges the real cost (which may exceed the hold). */
  settle(reservation: Reservation, costMicros: number): Promise<void>;

  close(): Promise<void>;
}
