import { timingSafeEqual } from 'node:crypto';
import { createValidationError, GatewayError } from '@switchyard/core';
import type { z } from 'zod';
import { looksLikeApiKey } from '../keys/api-key-secrets';
import type { AccountStore, ApiKeyPatch } from '../store/account-store';
import { digestAdminToken } from './admin-tokens';
import {
  adjustBalanceSchema,
  createAccountSchema,
  createKeySchema,
  updateAccountSchema,
  updateKeySchema,
} from './admin-schemas';
import { presentAccount, presentKey } from './present-admin-records';

export type AdminServiceOptions = {
  store: AccountStore;
  /** SHA-256 digests (hex, from `digestAdminToken`) of the console tokens that open the admin API. */
  adminTokenDigests: readonly string[];
};

export type AdminService = ReturnType<typeof createAdminService>;

/** Request headers as Node's `IncomingHttpHeaders` carries them; only `authorization` is read. */
export type AdminRequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Key and account management without a web framework: what the admin JSON API and the CLI call.
 * Inputs are validated (400 naming the field); secrets appear only in `createKey`'s answer.
 */
export function createAdminService(options: AdminServiceOptions) {
  const { store } = options;
  const digests = options.adminTokenDigests.map(digest => Buffer.from(digest, 'hex'));
  const found = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new GatewayError({ code: 'RESOURCE_NOT_FOUND', message: `No such ${what}.` });
    return value;
  };
  return {
    /** Checks `Authorization: Bearer <admin token>`; an API key there is refused by name. */
    authenticate(headers: AdminRequestHeaders): void {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(String(headers.authorization ?? ''));
      if (!match) throw new GatewayError({ code: 'ADMIN_TOKEN_MISSING', message: 'Send the console (admin) token as `Authorization: Bearer <token>`.' });
      const digest = Buffer.from(digestAdminToken(match[1]!), 'hex');
      if (digests.some(candidate => candidate.length === digest.length && timingSafeEqual(candidate, digest))) return;
      const why = looksLikeApiKey(match[1]!) ? ' An API key is not a console token.' : '';
      throw new GatewayError({ code: 'ADMIN_TOKEN_INVALID', message: `The console token is not valid.${why}` });
    },
    async listAccounts() {
      return { data: (await store.listAccounts()).map(presentAccount) };
    },
    async createAccount(body: unknown) {
      const input = parse(createAccountSchema, body);
      const account = await store.createAccount({
        name: input.name,
        balanceMicros: Math.round(input.balance * 1_000_000),
        subscription: input.subscription,
        ...(input.group !== undefined && { group: input.group }),
      });
      return presentAccount(account);
    },
    async updateAccount(id: string, body: unknown) {
      const patch = parse(updateAccountSchema, body);
      return presentAccount(found(await store.updateAccount(id, patch), 'account'));
    },
    async adjustBalance(id: string, body: unknown) {
      const { delta } = parse(adjustBalanceSchema, body);
      return presentAccount(found(await store.adjustBalance(id, Math.round(delta * 1_000_000)), 'account'));
    },
    async listKeys(accountId?: string) {
      return { data: (await store.listKeys(accountId)).map(presentKey) };
    },
    async createKey(body: unknown) {
      const input = parse(createKeySchema, body);
      found(await store.getAccount(input.accountId), 'account');
      const { secret, key } = await store.createKey(withoutUndefined(input));
      return { secret, key: presentKey(key) };
    },
    async updateKey(id: string, body: unknown) {
      const patch = parse(updateKeySchema, body);
      const cleaned = Object.fromEntries(Object.entries(patch).map(([name, value]) => [name, value ?? undefined])) as ApiKeyPatch;
      return presentKey(found(await store.updateKey(id, cleaned), 'key'));
    },
  };
}

function parse<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const result = schema.safeParse(body);
  if (!result.success) throw createValidationError(result.error.issues);
  return result.data;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
