import { randomBytes } from 'node:crypto';
import { createId } from '@signalbox/core';
import {
  DEFAULT_HOLD_LIFETIME_MS,
  DEFAULT_HOLD_SWEEP_INTERVAL_MS,
  type Account,
  type AccountStore,
  type ApiKeyRecord,
  type NewAccount,
  type NewApiKey,
  type Reservation,
} from './account-store';
import { createMemoryConfigVersions } from '../config/create-memory-config-versions';
import { chargeOnSettle } from './charge-on-settle';
import { createMemoryAlertDeliveryLog, DEFAULT_ALERT_DELIVERY_RETENTION_DAYS } from '../alerts/alert-delivery-log';
import { createMemoryBudgets } from '../budgets/create-memory-budgets';
import { budgetPeriodStart } from '../budgets/budget';
import { totalHolds } from './total-holds';
import { createMemoryResponseStore } from '../conversations/create-memory-response-store';
import { createMemoryConsoleTokenStore } from '../console/create-memory-console-token-store';
import { startStoreSweep } from './start-store-sweep';
import { createMemoryAuditLog } from '../audit/create-memory-audit-log';
import { createMemoryUsageLedger } from '../usage/create-memory-usage-ledger';
import { usageRetentionMs } from '../usage/usage-buckets';
import { apiKeyDigestKey, digestsEqual, generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey } from '../keys/api-key-secrets';

export type MemoryAccountStoreOptions = {
  /** HMAC key for API key digests. Default: random, so keys live only as long as the store. */
  serverSecret?: string;
  /** The clock holds expire by. Default `Date.now`. */
  now?: () => number;
  /**
   * How often, while the store is open, expired holds are released and expired responses deleted;
   * 0 turns the timer off. Default 60 000 ms.
   */
  holdSweepIntervalMs?: number;
  /** Ledger rows older than this many days are deleted by the sweep. Default `DEFAULT_USAGE_RETENTION_DAYS`. */
  usageRetentionDays?: number;
  /** Audit log entries older than this many days are deleted by the sweep. Default `DEFAULT_USAGE_RETENTION_DAYS`. */
  auditRetentionDays?: number;
  /** Alert delivery attempts older than this many days are deleted by the sweep. Default `DEFAULT_ALERT_DELIVERY_RETENTION_DAYS` (30). */
  alertDeliveryRetentionDays?: number;
};

/**
 * Keys and accounts in process memory: for tests and single-process demos. Keys are kept only as
 * HMAC digests, found by their visible prefix and compared in constant time. Node runs each call to
 * completion, so `reserve` is atomic without locks. Holds die with the process, so the only ones to
 * release are those whose request outlived their expiry. Stored conversations live here too.
 */
export function createMemoryAccountStore(options: MemoryAccountStoreOptions = {}): AccountStore {
  const serverSecret = options.serverSecret ?? randomBytes(32).toString('hex');
  const digestKey = apiKeyDigestKey(serverSecret);
  const now = options.now ?? Date.now;
  const ownerId = createId('owner_');
  const accounts = new Map<string, Account>();
  const keys = new Map<string, { record: ApiKeyRecord; digest: string }>();
  const reservations = new Map<string, Reservation>();
  const copy = <T extends object>(value: T | undefined): T | undefined => (value ? structuredClone(value) : undefined);
  const release = (reservation: Reservation) => {
    reservations.delete(reservation.id);
    const account = accounts.get(reservation.accountId);
    if (account) account.reservedMicros -= reservation.amountMicros;
  };
  const releaseExpiredHolds = async (at: number) => {
    const expired = [...reservations.values()].filter(reservation => reservation.expiresAt <= at);
    expired.forEach(release);
    return expired.length;
  };
  const settleHold = (reservation: Reservation, costMicros: number) => {
    // The stored hold, not the caller's copy, decides what is released and the most that is charged.
    const held = reservations.get(reservation.id);
    if (!held) return undefined;
    release(held);
    const account = accounts.get(held.accountId);
    const settled = chargeOnSettle(costMicros, held.amountMicros, account?.balanceMicros ?? 0);
    if (account) account.balanceMicros -= settled.chargedMicros;
    if (settled.chargedMicros > 0) budgets.charge(held.accountId, held.keyId, settled.chargedMicros, now());
    return settled;
  };
  const budgets = createMemoryBudgets(reservations);
  const ledger = createMemoryUsageLedger({ settleHold, now });
  const { recordBalanceEvent, ...usageLedger } = ledger;
  const retentionMs = usageRetentionMs(options.usageRetentionDays);
  const responses = createMemoryResponseStore();
  const audit = createMemoryAuditLog();
  const auditRetention = usageRetentionMs(options.auditRetentionDays);
  const alertDeliveries = createMemoryAlertDeliveryLog();
  const alertDeliveryRetention = usageRetentionMs(options.alertDeliveryRetentionDays ?? DEFAULT_ALERT_DELIVERY_RETENTION_DAYS);
  const sweeps = [
    releaseExpiredHolds,
    responses.deleteExpiredResponses,
    (at: number) => usageLedger.deleteUsageBefore(at - retentionMs),
    (at: number) => audit.deleteAuditBefore(at - auditRetention),
    (at: number) => alertDeliveries.deleteAlertDeliveriesBefore(at - alertDeliveryRetention),
  ];
  const stopSweep = startStoreSweep(sweeps, {
    intervalMs: options.holdSweepIntervalMs ?? DEFAULT_HOLD_SWEEP_INTERVAL_MS,
    now,
  });

  const consoleTokens = createMemoryConsoleTokenStore({ serverSecret, hasAccount: id => accounts.has(id) });

  return {
    ...alertDeliveries,
    configVersions: createMemoryConfigVersions(),
    ...responses,
    ...usageLedger,
    ...consoleTokens,
    ...audit,
    async createAccount(input: NewAccount) {
      const account: Account = {
        id: createId('acct_'),
        name: input.name,
        balanceMicros: input.balanceMicros ?? 0,
        reservedMicros: 0,
        subscription: input.subscription ?? 'active',
        ...(input.group !== undefined && { group: input.group }),
        ...(input.keyLimitCeiling !== undefined && { keyLimitCeiling: structuredClone(input.keyLimitCeiling) }),
        createdAt: Date.now(),
      };
      accounts.set(account.id, account);
      recordBalanceEvent(account.id, 'opening', account.balanceMicros, account.balanceMicros);
      return copy(account)!;
    },
    async getAccount(id) {
      return copy(accounts.get(id));
    },
    async listAccounts() {
      return [...accounts.values()].map(account => copy(account)!);
    },
    async updateAccount(id, patch) {
      const account = accounts.get(id);
      if (!account) return undefined;
      Object.assign(account, structuredClone(patch));
      return copy(account);
    },
    async adjustBalance(id, deltaMicros) {
      const account = accounts.get(id);
      if (!account) return undefined;
      const delta = Math.round(deltaMicros);
      account.balanceMicros += delta;
      if (delta !== 0) recordBalanceEvent(id, delta > 0 ? 'top-up' : 'adjustment', delta, account.balanceMicros);
      return copy(account);
    },
    async createKey(input: NewApiKey) {
      if (!accounts.has(input.accountId)) throw new Error(`No account '${input.accountId}'.`);
      const { secret: adopted, ...fields } = input;
      if (adopted !== undefined && !looksLikeApiKey(adopted)) throw new Error('An adopted secret must have the API key shape.');
      const secret = adopted ?? generateApiKey();
      const record: ApiKeyRecord = {
        ...structuredClone(fields),
        id: createId('key_'),
        prefix: keyPrefix(secret),
        status: input.status ?? 'active',
        createdAt: Date.now(),
      };
      keys.set(record.id, { record, digest: hashApiKey(secret, digestKey) });
      return { secret, key: copy(record)! };
    },
    async findKeyBySecret(secret) {
      const prefix = keyPrefix(secret);
      const digest = hashApiKey(secret, digestKey);
      for (const entry of keys.values()) {
        if (entry.record.prefix === prefix && digestsEqual(entry.digest, digest)) return copy(entry.record);
      }
      return undefined;
    },
    async getKey(id) {
      return copy(keys.get(id)?.record);
    },
    async listKeys(accountId) {
      return [...keys.values()]
        .map(entry => entry.record)
        .filter(record => accountId === undefined || record.accountId === accountId)
        .map(record => copy(record)!);
    },
    async updateKey(id, change) {
      const entry = keys.get(id);
      if (!entry) return undefined;
      const patch = typeof change === 'function' ? change(copy(entry.record)!) : change;
      Object.assign(entry.record, structuredClone(patch));
      if (entry.record.status === 'active') delete entry.record.disabledBy;
      return copy(entry.record);
    },
    async reserve(accountId, amountMicros, hold = {}) {
      const account = accounts.get(accountId);
      const amount = Math.max(0, Math.ceil(amountMicros));
      if (!account || account.balanceMicros - account.reservedMicros < amount) return undefined;
      if (!budgets.fits(accountId, hold.keyId, amount, now())) return undefined;
      account.reservedMicros += amount;
      const reservation: Reservation = {
        id: createId('hold_'),
        accountId,
        amountMicros: amount,
        expiresAt: hold.expiresAt ?? now() + DEFAULT_HOLD_LIFETIME_MS,
        ownerId,
        ...(hold.keyId !== undefined && { keyId: hold.keyId }),
      };
      reservations.set(reservation.id, reservation);
      return { ...reservation };
    },
    async settle(reservation, costMicros) {
      return settleHold(reservation, costMicros);
    },
    async setBudget(change) {
      if (!accounts.has(change.accountId)) return undefined;
      if (change.keyId !== undefined && keys.get(change.keyId)?.record.accountId !== change.accountId) return undefined;
      const at = now();
      const from = budgetPeriodStart(change.period, at);
      const rows = await usageLedger.summarizeUsage(
        { from, accountId: change.accountId, ...(change.keyId !== undefined && { keyId: change.keyId }) },
        { bucket: 'day' },
      );
      budgets.set(change, rows.reduce((sum, row) => sum + row.costMicros, 0), at);
      return budgets.list(change.accountId, at, change.keyId ?? '');
    },
    async listBudgets(accountId) {
      return budgets.list(accountId, now());
    },
    releaseExpiredHolds,
    async holdTotals() {
      return totalHolds(reservations.values());
    },
    async ping() {
      // In process memory: always there.
    },
    async close() {
      stopSweep();
    },
  };
}
