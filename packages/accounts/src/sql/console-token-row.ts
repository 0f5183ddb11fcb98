import { createId } from '@signalbox/core';
import { consoleTokenPrefix } from '../console/console-token-secrets';
import type { ConsoleTokenPatch, ConsoleTokenRecord, NewConsoleToken } from '../console/console-token-store';
import { hashApiKey } from '../keys/api-key-secrets';

/** The columns of a `console_tokens` row a read returns (the digest only where a lookup selects it). */
export const CONSOLE_TOKEN_COLUMNS = 'id, account_id, name, prefix, status, role, expires_at, created_at';

/** One `console_tokens` row as a SQL store reads it (without the digest unless selected). */
type ConsoleTokenRow = {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  status: ConsoleTokenRecord['status'];
  role: ConsoleTokenRecord['role'];
  expires_at: number | null;
  created_at: number;
};

/** A fresh record from a row (never the digest); `undefined` passes through. */
export function toConsoleTokenRecord(row: Record<string, unknown> | undefined): ConsoleTokenRecord | undefined {
  if (!row) return undefined;
  const token = row as ConsoleTokenRow;
  return {
    id: token.id,
    accountId: token.account_id,
    name: token.name,
    prefix: token.prefix,
    status: token.status,
    role: token.role,
    ...(token.expires_at !== null && { expiresAt: token.expires_at }),
    createdAt: token.created_at,
  };
}

/**
 * The values of a new `console_tokens` row, in the order `id, account_id, name, prefix, digest,
 * role, expires_at, created_at` (its status is `active`): the secret only as its prefix and its digest.
 */
export function newConsoleTokenRowValues(input: NewConsoleToken, secret: string, serverSecret: string): Array<string | number | null> {
  return [
    createId('ctok_'),
    input.accountId,
    input.name,
    consoleTokenPrefix(secret),
    hashApiKey(secret, serverSecret),
    input.role ?? 'owner',
    input.expiresAt ?? null,
    Date.now(),
  ];
}

/**
 * The `SET` list and values of a console token change, parameters numbered from 1 by `placeholder`:
 * only the members the patch gives, so a role change leaves the status as it is and the other way round.
 */
export function consoleTokenPatchAssignments(patch: ConsoleTokenPatch, placeholder: (index: number) => string): { set: string; values: string[] } {
  const members = ([['status', patch.status], ['role', patch.role]] as const).filter(([, value]) => value !== undefined);
  return { set: members.map(([column], index) => `${column} = ${placeholder(index + 1)}`).join(', '), values: members.map(([, value]) => value!) };
}
