import { createId } from '@signalbox/core';
import { hashApiKey, keyPrefix } from '../keys/api-key-secrets';
import type { KeyLimits } from '../keys/key-limits';
import type { ApiKeyPatch, ApiKeyRecord, NewApiKey } from '../store/account-store';

/** One `api_keys` row as a SQL store reads it; list and limits are JSON text, absent members are NULL. */
export type ApiKeyRow = {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  digest: string;
  status: ApiKeyRecord['status'];
  expires_at: number | null;
  group_name: string | null;
  allowed_models: string | null;
  limits: string | null;
  disabled_by: ApiKeyRecord['disabledBy'] | null;
  created_at: number;
};

/** The columns a key patch may change, in the order the update statement binds them. */
export type ApiKeyMutableColumns = [
  name: string,
  status: string,
  expiresAt: number | null,
  group: string | null,
  allowedModels: string | null,
  limits: string | null,
  disabledBy: string | null,
];

/** A fresh `ApiKeyRecord` from a row (never the digest); `undefined` passes through. */
export function toApiKeyRecord(row: Record<string, unknown> | undefined): ApiKeyRecord | undefined {
  if (!row) return undefined;
  const key = row as ApiKeyRow;
  return {
    id: key.id,
    accountId: key.account_id,
    name: key.name,
    prefix: key.prefix,
    status: key.status,
    ...(key.expires_at !== null && { expiresAt: key.expires_at }),
    ...(key.group_name !== null && { group: key.group_name }),
    ...(key.allowed_models !== null && { allowedModels: JSON.parse(key.allowed_models) as string[] }),
    ...(key.limits !== null && { limits: JSON.parse(key.limits) as KeyLimits }),
    ...(key.disabled_by !== null && { disabledBy: key.disabled_by }),
    createdAt: key.created_at,
  };
}

/** The patchable part of a record as column values, `undefined` members stored as NULL. */
function toMutableColumns(
  key: Pick<ApiKeyRecord, 'name' | 'status' | 'disabledBy' | 'expiresAt' | 'group' | 'allowedModels' | 'limits'>,
): ApiKeyMutableColumns {
  return [
    key.name,
    key.status,
    key.expiresAt ?? null,
    key.group ?? null,
    key.allowedModels === undefined ? null : JSON.stringify(key.allowedModels),
    key.limits === undefined ? null : JSON.stringify(key.limits),
    key.status === 'active' ? null : (key.disabledBy ?? null),
  ];
}

/**
 * The columns of `current` with `patch` applied, as a SQL store writes them back: a member given
 * as `undefined` clears an optional column, while `name` and `status` keep their value unless given;
 * an active key keeps no `disabledBy`.
 */
export function toPatchedColumns(current: ApiKeyRecord, patch: ApiKeyPatch): ApiKeyMutableColumns {
  return toMutableColumns({
    ...current,
    ...patch,
    name: patch.name ?? current.name,
    status: patch.status ?? current.status,
  });
}

/**
 * The values of a new `api_keys` row, in the order `id, account_id, prefix, digest, created_at`
 * then `ApiKeyMutableColumns`: the secret only as its visible prefix and its digest under `serverSecret`.
 */
export function newApiKeyRowValues(input: NewApiKey, secret: string, serverSecret: string): Array<string | number | null> {
  return [
    createId('key_'),
    input.accountId,
    keyPrefix(secret),
    hashApiKey(secret, serverSecret),
    Date.now(),
    ...toMutableColumns({ ...input, status: input.status ?? 'active' }),
  ];
}
