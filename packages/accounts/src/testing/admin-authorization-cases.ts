import type { KeyLimitMember } from '../keys/key-limit-bounds';
import { CASE_CEILING, CASE_UPSTREAM, ONE_STEP_LESS, ONE_STEP_MORE, type AdminRoute, type AuthorizationFixture } from './authorization-fixture';

/** What a case must answer: the status, and for a refusal its service code and `param` (absent when it names no field). */
export type ExpectedAnswer = { status: number; code?: string; param?: string; effect?: Record<string, unknown> };

/**
 * One admin route with one field (or none, for a read), and what each identity must get: the admin
 * token, the own account's owner (`account`) and viewer, and the other account's owner (`stranger`).
 * `viewer` and `stranger` default by `expectedOf`; a case names them where it differs.
 */
export type AuthorizationCase = {
  route: AdminRoute;
  field: string;
  id?: (fixture: AuthorizationFixture) => string;
  body?: (fixture: AuthorizationFixture) => Record<string, unknown>;
  admin: ExpectedAnswer;
  account: ExpectedAnswer;
  viewer?: ExpectedAnswer;
  stranger?: ExpectedAnswer;
};

/** The identities every case runs as. */
export type CaseIdentity = 'admin' | 'account' | 'viewer' | 'stranger';

const OK = { status: 200 };
const CREATED = { status: 201 };
const NOT_FOUND = { status: 404, code: 'RESOURCE_NOT_FOUND' };
const VIEWER_REFUSED = { status: 403, code: 'CONSOLE_ROLE_FORBIDDEN' };
const adminOnly = (param?: string): ExpectedAnswer => ({ status: 403, code: 'ADMIN_TOKEN_REQUIRED', ...(param && { param }) });
const MEMBERS = Object.keys(CASE_CEILING) as KeyLimitMember[];

const own = (fixture: AuthorizationFixture) => fixture.ownAccountId;
const other = (fixture: AuthorizationFixture) => fixture.otherAccountId;

const READS: AuthorizationCase[] = [
  { route: 'GET /me', field: '—', admin: OK, account: OK },
  { route: 'GET /routes', field: '—', admin: OK, account: OK },
  { route: 'GET /accounts', field: '—', admin: OK, account: OK },
  { route: 'GET /accounts/:id', field: 'id: its own account', id: own, admin: OK, account: OK },
  { route: 'GET /accounts/:id', field: 'id: another account', id: other, admin: OK, account: NOT_FOUND, stranger: OK },
  { route: 'GET /accounts/:id/balance-events', field: 'id: its own account', id: own, admin: OK, account: OK },
  { route: 'GET /accounts/:id/balance-events', field: 'id: another account', id: other, admin: OK, account: NOT_FOUND, stranger: OK },
  { route: 'GET /keys', field: '—', admin: OK, account: OK },
  { route: 'GET /console-tokens', field: '—', admin: OK, account: OK },
  { route: 'GET /usage', field: '—', admin: OK, account: OK },
  { route: 'GET /usage.csv', field: '—', admin: OK, account: OK },
  { route: 'GET /usage/summary', field: '—', admin: OK, account: OK },
  { route: 'GET /upstreams', field: '—', admin: OK, account: adminOnly() },
  { route: 'GET /audit', field: '—', admin: OK, account: OK, viewer: VIEWER_REFUSED },
  { route: 'GET /audit.csv', field: '—', admin: OK, account: OK, viewer: VIEWER_REFUSED },
  { route: 'GET /alerts', field: '—', admin: OK, account: adminOnly() },
];

/** Budgets: an account's own is the operator's; an account's owner sets its own keys', never another's; a viewer reads them. */
const BUDGETS: AuthorizationCase[] = [
  { route: 'GET /budgets', field: '—', admin: OK, account: OK },
  { route: 'POST /budgets', field: 'period', body: fixture => ({ accountId: fixture.ownAccountId, period: 'day', limit: 5 }), admin: OK, account: adminOnly('keyId'), stranger: adminOnly('keyId') },
  { route: 'POST /budgets', field: 'limit: null', body: fixture => ({ accountId: fixture.ownAccountId, period: 'month', limit: null }), admin: OK, account: adminOnly('keyId'), stranger: adminOnly('keyId') },
  { route: 'POST /budgets', field: 'accountId', body: fixture => ({ accountId: fixture.otherAccountId, period: 'day', limit: 5 }), admin: OK, account: adminOnly('keyId'), stranger: adminOnly('keyId') },
  { route: 'POST /budgets', field: 'keyId: its own key', body: fixture => ({ keyId: fixture.ownKeyId, period: 'day', limit: 5 }), admin: OK, account: OK },
  { route: 'POST /budgets', field: 'keyId: another account’s key', body: fixture => ({ keyId: fixture.otherKeyId, period: 'day', limit: 5 }), admin: OK, account: NOT_FOUND, stranger: OK },
];

/** The gateway's upstreams: the operator's alone. */
const UPSTREAMS: AuthorizationCase[] = [
  { route: 'POST /upstreams/:id/enable', field: 'credential', id: () => CASE_UPSTREAM, body: () => ({ credential: 'default' }), admin: OK, account: adminOnly() },
  {
    route: 'POST /upstreams/:id/enable',
    field: 'credential: one the upstream does not have',
    id: () => CASE_UPSTREAM,
    body: () => ({ credential: 'nobody' }),
    admin: NOT_FOUND,
    account: adminOnly(),
  },
];

/** The live configuration: the operator's alone (a change sends back the document in force). */
const CONFIG: AuthorizationCase[] = [
  { route: 'GET /config', field: '—', admin: OK, account: adminOnly() },
  { route: 'GET /config/versions', field: '—', admin: OK, account: adminOnly() },
  { route: 'GET /config/versions/:id', field: 'id: version 1', id: () => '1', admin: OK, account: adminOnly() },
  { route: 'GET /config/versions/:id', field: 'id: a version that does not exist', id: () => '999', admin: NOT_FOUND, account: adminOnly() },
  { route: 'GET /config/versions/:id/diff', field: 'id: version 1', id: () => '1', admin: OK, account: adminOnly() },
  { route: 'POST /config/versions', field: 'document', body: fixture => ({ document: fixture.configDocument }), admin: CREATED, account: adminOnly() },
  {
    route: 'POST /config/versions',
    field: 'baseVersion: one that is not the newest',
    body: fixture => ({ document: fixture.configDocument, baseVersion: 999 }),
    admin: { status: 409, code: 'CONFIG_VERSION_CONFLICT', param: 'baseVersion' },
    account: adminOnly(),
  },
  { route: 'POST /config/versions/:id/rollback', field: 'id: version 1', id: () => '1', admin: CREATED, account: adminOnly() },
];

/** Accounts, balances and console tokens: the operator's, every field. */
const OPERATOR_RECORDS: AuthorizationCase[] = [
  ...Object.entries({ name: 'New', balance: 3, subscription: 'inactive', group: 'gold', keyLimitCeiling: { concurrency: 2 } }).map(
    ([field, value]): AuthorizationCase => ({ route: 'POST /accounts', field, body: () => ({ name: 'New', [field]: value }), admin: CREATED, account: adminOnly() }),
  ),
  ...Object.entries({ name: 'Renamed', subscription: 'inactive', group: 'gold', keyLimitCeiling: { ...CASE_CEILING, concurrency: 8 } }).map(
    ([field, value]): AuthorizationCase => ({ route: 'PATCH /accounts/:id', field, id: own, body: () => ({ [field]: value }), admin: OK, account: adminOnly() }),
  ),
  { route: 'PATCH /accounts/:id', field: 'keyLimitCeiling: null (back to limits.default)', id: own, body: () => ({ keyLimitCeiling: null }), admin: OK, account: adminOnly() },
  {
    route: 'PATCH /accounts/:id',
    field: 'keyLimitCeiling: below a key’s own limits',
    id: own,
    body: () => ({ keyLimitCeiling: { ...CASE_CEILING, concurrency: 3 } }),
    admin: { status: 409, code: 'KEY_LIMITS_ABOVE_CEILING', param: 'keyLimitCeiling.concurrency' },
    account: adminOnly(),
  },
  { route: 'POST /accounts/:id/balance', field: 'delta', id: own, body: () => ({ delta: 1000 }), admin: OK, account: adminOnly() },
];

/** An account's members: its console tokens, managed by the admin and by the account's owner. */
const CONSOLE_TOKENS: AuthorizationCase[] = [
  ...['accountId', 'name', 'expiresAt'].map(
    (field): AuthorizationCase => ({
      route: 'POST /console-tokens',
      field,
      body: fixture => ({ accountId: fixture.ownAccountId, name: 'bob', ...(field === 'expiresAt' && { expiresAt: '2030-01-01T00:00:00Z' }) }),
      admin: CREATED,
      account: { ...CREATED, effect: { token: { role: 'owner' } } },
    }),
  ),
  { route: 'POST /console-tokens', field: 'accountId: left out (its own)', body: () => ({ name: 'bob' }), admin: { status: 400, code: 'INVALID_REQUEST', param: 'accountId' }, account: CREATED, stranger: CREATED },
  { route: 'POST /console-tokens', field: 'accountId: another account', body: fixture => ({ accountId: fixture.otherAccountId, name: 'bob' }), admin: CREATED, account: NOT_FOUND, stranger: CREATED },
  { route: 'POST /console-tokens', field: 'role: viewer', body: fixture => ({ accountId: fixture.ownAccountId, name: 'reader', role: 'viewer' }), admin: CREATED, account: { ...CREATED, effect: { token: { role: 'viewer' } } } },
  { route: 'PATCH /console-tokens/:id', field: 'status', id: fixture => fixture.consoleTokenId, body: () => ({ status: 'disabled' }), admin: OK, account: { ...OK, effect: { status: 'disabled' } } },
  { route: 'PATCH /console-tokens/:id', field: 'role', id: fixture => fixture.viewerTokenId, body: () => ({ role: 'owner' }), admin: OK, account: { ...OK, effect: { role: 'owner' } } },
  { route: 'PATCH /console-tokens/:id', field: 'role: another account’s token', id: fixture => fixture.strangerTokenId, body: () => ({ role: 'viewer' }), admin: OK, account: NOT_FOUND, stranger: OK },
];

const newKey = (fields: Record<string, unknown>) => (fixture: AuthorizationFixture) => ({ accountId: fixture.ownAccountId, name: 'new', ...fields });

const KEY_CREATION: AuthorizationCase[] = [
  { route: 'POST /keys', field: 'accountId: its own account', body: newKey({}), admin: CREATED, account: CREATED },
  { route: 'POST /keys', field: 'accountId: another account', body: fixture => ({ accountId: fixture.otherAccountId, name: 'x' }), admin: CREATED, account: NOT_FOUND, stranger: CREATED },
  { route: 'POST /keys', field: 'name', body: newKey({ name: 'laptop' }), admin: CREATED, account: { ...CREATED, effect: { name: 'laptop' } } },
  { route: 'POST /keys', field: 'expiresAt', body: newKey({ expiresAt: '2030-01-01T00:00:00Z' }), admin: CREATED, account: { ...CREATED, effect: { expiresAt: '2030-01-01T00:00:00.000Z' } } },
  { route: 'POST /keys', field: 'group', body: newKey({ group: 'gold' }), admin: { ...CREATED, effect: { group: 'gold' } }, account: adminOnly('group') },
  {
    route: 'POST /keys',
    field: 'allowedModels: models its account may use',
    body: newKey({ allowedModels: ['open-model', 'silver-model'] }),
    admin: CREATED,
    account: { ...CREATED, effect: { allowedModels: ['open-model', 'silver-model'] } },
  },
  { route: 'POST /keys', field: 'allowedModels: a model of another group', body: newKey({ allowedModels: ['open-model', 'gold-model'] }), admin: CREATED, account: adminOnly('allowedModels.1') },
  { route: 'POST /keys', field: 'allowedModels: an unknown model', body: newKey({ allowedModels: ['no-such-model'] }), admin: CREATED, account: adminOnly('allowedModels.0') },
  { route: 'POST /keys', field: 'limits: the ceiling itself', body: newKey({ limits: CASE_CEILING }), admin: CREATED, account: { ...CREATED, effect: { limits: CASE_CEILING } } },
  ...MEMBERS.flatMap((member): AuthorizationCase[] => [
    { route: 'POST /keys', field: `limits.${member}: one step beyond the ceiling`, body: newKey({ limits: { ...CASE_CEILING, [member]: ONE_STEP_MORE[member] } }), admin: CREATED, account: adminOnly(`limits.${member}`) },
    { route: 'POST /keys', field: `limits.${member}: one step within the ceiling`, body: newKey({ limits: { [member]: ONE_STEP_LESS[member] } }), admin: CREATED, account: CREATED },
  ]),
];

const patchOf = (key: keyof AuthorizationFixture) => (fixture: AuthorizationFixture) => String(fixture[key]);
const patch = (body: Record<string, unknown>) => () => body;

const KEY_CHANGES: AuthorizationCase[] = [
  { route: 'PATCH /keys/:id', field: 'name: its own key', id: patchOf('ownKeyId'), body: patch({ name: 'renamed' }), admin: OK, account: { ...OK, effect: { name: 'renamed' } } },
  { route: 'PATCH /keys/:id', field: 'name: another account’s key', id: patchOf('otherKeyId'), body: patch({ name: 'renamed' }), admin: OK, account: NOT_FOUND, stranger: OK },
  {
    route: 'PATCH /keys/:id',
    field: 'status: disabled',
    id: patchOf('ownKeyId'),
    body: patch({ status: 'disabled' }),
    admin: { ...OK, effect: { status: 'disabled', disabledBy: 'operator' } },
    account: { ...OK, effect: { status: 'disabled', disabledBy: 'account' } },
  },
  {
    route: 'PATCH /keys/:id',
    field: 'status: active, on a key the account disabled',
    id: patchOf('accountDisabledKeyId'),
    body: patch({ status: 'active' }),
    admin: { ...OK, effect: { status: 'active', disabledBy: null } },
    account: { ...OK, effect: { status: 'active', disabledBy: null } },
  },
  { route: 'PATCH /keys/:id', field: 'status: active, on a key the operator disabled', id: patchOf('operatorDisabledKeyId'), body: patch({ status: 'active' }), admin: OK, account: adminOnly('status') },
  {
    route: 'PATCH /keys/:id',
    field: 'status: disabled, on a key the operator disabled',
    id: patchOf('operatorDisabledKeyId'),
    body: patch({ status: 'disabled' }),
    admin: { ...OK, effect: { disabledBy: 'operator' } },
    account: { ...OK, effect: { status: 'disabled', disabledBy: 'operator' } },
  },
  { route: 'PATCH /keys/:id', field: 'expiresAt', id: patchOf('ownKeyId'), body: patch({ expiresAt: '2030-01-01T00:00:00Z' }), admin: OK, account: OK },
  { route: 'PATCH /keys/:id', field: 'expiresAt: null', id: patchOf('ownKeyId'), body: patch({ expiresAt: null }), admin: OK, account: { ...OK, effect: { expiresAt: null } } },
  { route: 'PATCH /keys/:id', field: 'group', id: patchOf('ownKeyId'), body: patch({ group: 'gold' }), admin: { ...OK, effect: { group: 'gold' } }, account: adminOnly('group') },
  { route: 'PATCH /keys/:id', field: 'group: null', id: patchOf('grantedKeyId'), body: patch({ group: null }), admin: { ...OK, effect: { group: null } }, account: adminOnly('group') },
  { route: 'PATCH /keys/:id', field: 'allowedModels: models its account may use', id: patchOf('ownKeyId'), body: patch({ allowedModels: ['silver-model'] }), admin: OK, account: OK },
  { route: 'PATCH /keys/:id', field: 'allowedModels: a model of another group', id: patchOf('ownKeyId'), body: patch({ allowedModels: ['gold-model'] }), admin: OK, account: adminOnly('allowedModels.0') },
  { route: 'PATCH /keys/:id', field: 'allowedModels: null', id: patchOf('ownKeyId'), body: patch({ allowedModels: null }), admin: OK, account: OK },
  { route: 'PATCH /keys/:id', field: 'allowedModels: the operator’s grant, kept', id: patchOf('grantedKeyId'), body: patch({ allowedModels: ['gold-model', 'open-model'] }), admin: OK, account: OK },
  { route: 'PATCH /keys/:id', field: 'allowedModels: beyond the operator’s grant', id: patchOf('grantedKeyId'), body: patch({ allowedModels: ['gold-plus-model'] }), admin: OK, account: adminOnly('allowedModels.0') },
  { route: 'PATCH /keys/:id', field: 'allowedModels: null, lifting the operator’s list', id: patchOf('grantedKeyId'), body: patch({ allowedModels: null }), admin: OK, account: adminOnly('allowedModels') },
  { route: 'PATCH /keys/:id', field: 'limits: the ceiling itself', id: patchOf('ownKeyId'), body: patch({ limits: CASE_CEILING }), admin: OK, account: OK },
  { route: 'PATCH /keys/:id', field: 'limits: null', id: patchOf('limitedKeyId'), body: patch({ limits: null }), admin: OK, account: { ...OK, effect: { limits: null } } },
  { route: 'PATCH /keys/:id', field: 'limits: the operator’s grant, kept', id: patchOf('grantedKeyId'), body: patch({ limits: { concurrency: 10, requests: 50 } }), admin: OK, account: OK },
  { route: 'PATCH /keys/:id', field: 'limits: beyond the operator’s grant', id: patchOf('grantedKeyId'), body: patch({ limits: { concurrency: 11 } }), admin: OK, account: adminOnly('limits.concurrency') },
  ...MEMBERS.map(
    (member): AuthorizationCase => ({
      route: 'PATCH /keys/:id',
      field: `limits.${member}: one step beyond the ceiling`,
      id: patchOf('ownKeyId'),
      body: patch({ limits: { [member]: ONE_STEP_MORE[member] } }),
      admin: OK,
      account: adminOnly(`limits.${member}`),
    }),
  ),
];

/**
 * Every admin route × every field of its body (each limit member, both ways) × every identity:
 * what the admin token, the account's owner and viewer and another account's owner get. Run by the
 * service's test and, over HTTP, by the admin router's.
 */
export const ADMIN_AUTHORIZATION_CASES: readonly AuthorizationCase[] = [...READS, ...OPERATOR_RECORDS, ...CONSOLE_TOKENS, ...KEY_CREATION, ...KEY_CHANGES, ...BUDGETS, ...UPSTREAMS, ...CONFIG];

/**
 * What an identity gets from a case. A viewer reads what the owner reads and changes nothing (403
 * `CONSOLE_ROLE_FORBIDDEN`; the operator's own routes stay 403 `ADMIN_TOKEN_REQUIRED`). Another
 * account's owner is refused the operator's routes alike, reads its own account where a read names
 * none, and finds the own account's records missing (404) as if they did not exist.
 */
export function expectedOf(entry: AuthorizationCase, identity: CaseIdentity): ExpectedAnswer {
  if (identity === 'admin' || identity === 'account') return entry[identity];
  const operatorOnly = entry.account.code === 'ADMIN_TOKEN_REQUIRED' && entry.account.param === undefined;
  const read = entry.route.startsWith('GET ');
  if (identity === 'viewer') return entry.viewer ?? (read || operatorOnly ? withoutEffect(entry.account) : VIEWER_REFUSED);
  return entry.stranger ?? (operatorOnly ? entry.account : read && !entry.id ? withoutEffect(entry.account) : NOT_FOUND);
}

function withoutEffect({ effect: _effect, ...answer }: ExpectedAnswer): ExpectedAnswer {
  return answer;
}
