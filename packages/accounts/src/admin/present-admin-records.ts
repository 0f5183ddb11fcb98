import type { ConsoleTokenRecord } from '../console/console-token-store';
import type { Account, ApiKeyRecord } from '../store/account-store';

/** An account as the admin API shows it: money in units and micro-units, times in ISO 8601. */
export function presentAccount(account: Account) {
  return {
    id: account.id,
    name: account.name,
    balance: account.balanceMicros / 1_000_000,
    balanceMicros: account.balanceMicros,
    reservedMicros: account.reservedMicros,
    subscription: account.subscription,
    group: account.group ?? null,
    keyLimitCeiling: account.keyLimitCeiling ?? null,
    createdAt: new Date(account.createdAt).toISOString(),
  };
}

/** A key as the admin API shows it: never the secret, only its visible prefix. */
export function presentKey(key: ApiKeyRecord) {
  return {
    id: key.id,
    accountId: key.accountId,
    name: key.name,
    prefix: key.prefix,
    status: key.status,
    disabledBy: key.status === 'disabled' ? (key.disabledBy ?? 'operator') : null,
    expiresAt: key.expiresAt === undefined ? null : new Date(key.expiresAt).toISOString(),
    group: key.group ?? null,
    allowedModels: key.allowedModels ?? null,
    limits: key.limits ?? null,
    createdAt: new Date(key.createdAt).toISOString(),
  };
}

/** An account console token as the admin API shows it: never the secret, only its visible prefix. */
export function presentConsoleToken(token: ConsoleTokenRecord) {
  return {
    id: token.id,
    accountId: token.accountId,
    name: token.name,
    prefix: token.prefix,
    status: token.status,
    role: token.role,
    expiresAt: token.expiresAt === undefined ? null : new Date(token.expiresAt).toISOString(),
    createdAt: new Date(token.createdAt).toISOString(),
  };
}
