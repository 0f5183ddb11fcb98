import { z } from 'zod';
import { keyLimitsSchema } from '../keys/key-limits';
import { CONSOLE_ROLES } from './console-identity';

const group = z.string().min(1).max(100);
const expiresAt = z.iso.datetime({ offset: true }).transform(value => Date.parse(value));

export const createAccountSchema = z
  .object({
    name: z.string().min(1).max(200),
    /** Opening balance in currency units (decimal). */
    balance: z.number().nonnegative().max(1e9).default(0),
    subscription: z.enum(['active', 'inactive']).default('active'),
    group: group.optional(),
    /** The most an account console token may give the account's keys, over `limits.default` member by member. */
    keyLimitCeiling: keyLimitsSchema.optional(),
  })
  .strict();

export const updateAccountSchema = z
  .object({ name: z.string().min(1).max(200), subscription: z.enum(['active', 'inactive']), group, keyLimitCeiling: keyLimitsSchema.nullable() })
  .partial()
  .strict();

export const adjustBalanceSchema = z.object({ delta: z.number().min(-1e9).max(1e9) }).strict();

/** Which credential of an upstream to put back in service: its config name. */
export const enableCredentialSchema = z.object({ credential: z.string().min(1).max(64) }).strict();

export const createKeySchema = z
  .object({
    accountId: z.string().min(1),
    name: z.string().min(1).max(200),
    expiresAt: expiresAt.optional(),
    group: group.optional(),
    allowedModels: z.array(z.string().min(1)).max(1000).optional(),
    limits: keyLimitsSchema.optional(),
  })
  .strict();

export const updateKeySchema = z
  .object({
    name: z.string().min(1).max(200),
    status: z.enum(['active', 'disabled']),
    expiresAt: expiresAt.nullable(),
    group: group.nullable(),
    allowedModels: z.array(z.string().min(1)).max(1000).nullable(),
    limits: keyLimitsSchema.nullable(),
  })
  .partial()
  .strict();

/** What a console token's identity may do with its account: `owner` manages it, `viewer` only reads. */
const role = z.enum(CONSOLE_ROLES as ['owner', 'viewer']);

export const createConsoleTokenSchema = z
  .object({ accountId: z.string().min(1), name: z.string().min(1).max(200), role: role.default('owner'), expiresAt: expiresAt.optional() })
  .strict();

export const updateConsoleTokenSchema = z.object({ status: z.enum(['active', 'disabled']), role }).partial().strict();
