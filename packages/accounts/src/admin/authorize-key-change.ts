import { GatewayError } from '@signalbox/core';
import { describeBound, keyLimitBounds, looserBounds, membersBeyond, type KeyLimitBounds } from '../keys/key-limit-bounds';
import { effectiveKeyLimits, keyLimitCeiling, type KeyLimits } from '../keys/key-limits';
import type { Account, ApiKeyRecord, KeyDisabledBy } from '../store/account-store';
import type { ConsoleIdentity } from './console-identity';
import { modelsOpenTo, type ConsoleRoute } from './console-route';

/** What an account identity's key change is judged against. */
export type KeyChangeContext = {
  account: Account;
  /** The gateway's `limits.default`. */
  defaultKeyLimits: KeyLimits;
  routes: readonly ConsoleRoute[];
};

/** A new key's fields an account identity may set, as the admin schema parsed them. */
type NewKeyFields = { group?: string; allowedModels?: readonly string[]; limits?: KeyLimits };
/** A key patch as the admin schema parsed it (`null` clears). */
type KeyPatchFields = { group?: string | null; allowedModels?: readonly string[] | null; limits?: KeyLimits | null; status?: ApiKeyRecord['status'] };

/**
 * What an account console token may give a new key of its own account: never a group (the key
 * uses its account's), only models its account may use, limits within its account's ceiling.
 * Anything more is a 403 `ADMIN_TOKEN_REQUIRED` naming the field.
 */
export function authorizeNewKey(context: KeyChangeContext, input: NewKeyFields): void {
  if (input.group !== undefined) throw groupRefusal();
  const usable = modelsOpenTo(context.routes, context.account.group);
  if (input.allowedModels) refuseModelsOutside(input.allowedModels, usable);
  refuseLimitsBeyond(context, input.limits, ceilingBounds(context));
}

/**
 * What an account console token may change on a key of its own account: it may narrow the key, or
 * widen it back up to what its account may or what the key may already (an operator's grant is
 * kept, never extended); never its group; and it may enable only a key it disabled itself.
 */
export function authorizeKeyPatch(context: KeyChangeContext, key: ApiKeyRecord, patch: KeyPatchFields): void {
  if (patch.group !== undefined) throw groupRefusal();
  if (patch.status === 'active' && key.status === 'disabled' && key.disabledBy !== 'account') {
    throw adminOnly('status', 'The operator disabled this key; only the admin token may enable it again.');
  }
  if (patch.allowedModels !== undefined) {
    const group = key.group ?? context.account.group;
    const usable = new Set([...modelsOpenTo(context.routes, context.account.group), ...modelsOpenTo(context.routes, group, key.allowedModels)]);
    if (patch.allowedModels !== null) refuseModelsOutside(patch.allowedModels, usable);
    else if ([...modelsOpenTo(context.routes, group)].some(model => !usable.has(model))) {
      throw adminOnly('allowedModels', 'Only the admin token may lift this key\'s model list: its group opens models its account may not use.');
    }
  }
  if (patch.limits !== undefined) {
    const current = keyLimitBounds(effectiveKeyLimits(context.defaultKeyLimits, context.account, key));
    refuseLimitsBeyond(context, patch.limits ?? undefined, looserBounds(ceilingBounds(context), current));
  }
}

/**
 * Who a patch leaves a key disabled by: the operator for the admin; the account for its own
 * identity, unless the operator had disabled it already. `undefined` when the patch disables nothing.
 */
export function disabledByAfter(identity: ConsoleIdentity, key: ApiKeyRecord, status: ApiKeyRecord['status'] | undefined): KeyDisabledBy | undefined {
  if (status !== 'disabled') return undefined;
  if (identity.kind === 'admin') return 'operator';
  return key.status === 'disabled' && key.disabledBy !== 'account' ? 'operator' : 'account';
}

/** The bounds of the account's ceiling: `limits.default` overlaid by its own `keyLimitCeiling`. */
export function ceilingBounds(context: Pick<KeyChangeContext, 'account' | 'defaultKeyLimits'>): KeyLimitBounds {
  return keyLimitBounds(keyLimitCeiling(context.defaultKeyLimits, context.account));
}

function refuseModelsOutside(models: readonly string[], usable: ReadonlySet<string>): void {
  const outside = models.findIndex(model => !usable.has(model));
  if (outside === -1) return;
  throw adminOnly(`allowedModels.${outside}`, `allowedModels.${outside} is not a model this account may use; only the admin token may allow it.`);
}

function refuseLimitsBeyond(context: KeyChangeContext, limits: KeyLimits | undefined, bounds: KeyLimitBounds): void {
  const [member] = membersBeyond(effectiveKeyLimits(context.defaultKeyLimits, context.account, { ...(limits && { limits }) }), bounds);
  if (member === undefined) return;
  throw adminOnly(`limits.${member}`, `limits.${member} may be ${describeBound(member, bounds)} on this account's keys; only the admin token may set more.`);
}

function groupRefusal(): GatewayError {
  return adminOnly('group', 'Only the admin token may set a key\'s group; an account\'s keys use its account\'s group.');
}

/** 403 `ADMIN_TOKEN_REQUIRED` naming the field an account console token may not set so. */
function adminOnly(param: string, message: string): GatewayError {
  return new GatewayError({ code: 'ADMIN_TOKEN_REQUIRED', message, param });
}
