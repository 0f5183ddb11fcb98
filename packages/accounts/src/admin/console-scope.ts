import { createValidationError, GatewayError } from '@signalbox/core';
import type { z } from 'zod';
import type { ConsoleIdentity } from './console-identity';

/** A 404 that reads the same for a record that does not exist and for another account's. */
export function notFound(what: string): GatewayError {
  return new GatewayError({ code: 'RESOURCE_NOT_FOUND', message: `No such ${what}.` });
}

/** Refuses an account identity with 403 `ADMIN_TOKEN_REQUIRED`: accounts, balances and console tokens are the operator's. */
export function requireAdmin(identity: ConsoleIdentity, what: string): void {
  if (identity.kind === 'admin') return;
  throw new GatewayError({ code: 'ADMIN_TOKEN_REQUIRED', message: `Only the admin token may ${what}; this console token belongs to one account.` });
}

/**
 * Refuses an account's viewer with 403 `CONSOLE_ROLE_FORBIDDEN`: a viewer reads its account and
 * changes nothing. The admin and an account's owner pass.
 */
export function requireOwner(identity: ConsoleIdentity, what: string): void {
  if (identity.kind === 'admin' || identity.role === 'owner') return;
  throw new GatewayError({ code: 'CONSOLE_ROLE_FORBIDDEN', message: `A viewer's console token may not ${what}: only an owner's console token or the admin token may.` });
}

/** Whether the identity may see the records of `accountId` (its own, or any for the admin). */
export function maySee(identity: ConsoleIdentity, accountId: string | undefined): boolean {
  return identity.kind === 'admin' || accountId === identity.accountId;
}

/**
 * The account filter a listing runs with: the admin's as given; an account identity's always its
 * own, so naming another account finds nothing (`null`), exactly as a missing account would.
 */
export function scopedAccountId(identity: ConsoleIdentity, accountId: string | undefined): string | undefined | null {
  if (identity.kind === 'admin') return accountId;
  return accountId === undefined || accountId === identity.accountId ? identity.accountId : null;
}

/** Validates input against a schema: a 400 `INVALID_REQUEST` naming the first bad field (bounded, never the value). */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (!result.success) throw createValidationError(result.error.issues);
  return result.data;
}

/** The value, or a 404 when it is missing. */
export function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw notFound(what);
  return value;
}
