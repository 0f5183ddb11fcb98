import { GatewayError } from '@signalbox/core';
import { keyLimitsSchema } from '../keys/key-limits';
import { createMemoryAccountStore } from '../store/create-memory-account-store';
import {
  ADMIN_AUTHORIZATION_CASES,
  ADMIN_ROUTES,
  AUTHORIZATION_RUNS,
  CASE_DEFAULT_KEY_LIMITS,
  CASE_ROUTES,
  CASE_UPSTREAMS,
  createAuthorizationFixture,
  createCaseConfig,
  expectAuthorizationRun,
  type AdminCaller,
  type AdminRoute,
} from '../testing';
import {
  adjustBalanceSchema,
  createAccountSchema,
  createConsoleTokenSchema,
  createKeySchema,
  enableCredentialSchema,
  setBudgetSchema,
  updateAccountSchema,
  updateConsoleTokenSchema,
  updateKeySchema,
} from './admin-schemas';
import { changeConfigSchema } from '../config/config-schemas';
import { ADMIN_OPERATIONS } from './admin-operations';
import { ADMIN_IDENTITY, type ConsoleIdentity } from './console-identity';
import { createAdminService, type AdminService } from './create-admin-service';

/** The body each write route validates: the fields the cases must cover. */
const BODY_SCHEMAS: Partial<Record<AdminRoute, { shape: Record<string, unknown> }>> = {
  'POST /accounts': createAccountSchema,
  'PATCH /accounts/:id': updateAccountSchema,
  'POST /accounts/:id/balance': adjustBalanceSchema,
  'POST /keys': createKeySchema,
  'PATCH /keys/:id': updateKeySchema,
  'POST /console-tokens': createConsoleTokenSchema,
  'PATCH /console-tokens/:id': updateConsoleTokenSchema,
  'POST /upstreams/:id/enable': enableCredentialSchema,
  'POST /budgets': setBudgetSchema,
  'POST /config/versions': changeConfigSchema,
};

/** Each admin route's operation: what the admin router and the panel mount for it. */
const OPERATIONS = new Map(ADMIN_OPERATIONS.map(operation => [`${operation.method.toUpperCase()} ${operation.path}`, operation]));

/** Admin calls through the operations table, straight to the service: no HTTP in between. */
function callerFor(admin: AdminService, identity: ConsoleIdentity): AdminCaller {
  return async call => {
    const operation = OPERATIONS.get(call.route)!;
    try {
      const answer = await operation.run(admin, identity, { params: { id: call.id ?? '' }, query: {}, body: call.body ?? {} });
      return { status: operation.status, body: 'json' in answer ? (answer.json as Record<string, unknown>) : {} };
    } catch (error) {
      if (!GatewayError.isInstance(error)) throw error;
      return { status: error.status, body: {}, code: error.code, ...(error.param !== undefined && { param: error.param }) };
    }
  };
}

async function setUp() {
  const store = createMemoryAccountStore({ holdSweepIntervalMs: 0 });
  const admin = createAdminService({
    store,
    adminTokenDigests: [],
    routes: () => CASE_ROUTES,
    defaultKeyLimits: CASE_DEFAULT_KEY_LIMITS,
    upstreams: CASE_UPSTREAMS,
    config: await createCaseConfig(),
  });
  const asAdmin = callerFor(admin, ADMIN_IDENTITY);
  const fixture = await createAuthorizationFixture(asAdmin, async secret => callerFor(admin, await admin.authenticateToken(secret)));
  const snapshot = async () => ({
    accounts: await store.listAccounts(),
    keys: await store.listKeys(),
    tokens: await store.listConsoleTokens(),
    audit: await store.listAudit({}, { limit: 1000 }),
  });
  return { asAdmin, fixture, snapshot };
}

describe('the admin service’s authorization model: every route × every identity (admin, owner, viewer, another account) × every field', () => {
  it.each(AUTHORIZATION_RUNS)('$route $field, as $identity: $expected.status $expected.code', async run => {
    const { asAdmin, fixture, snapshot } = await setUp();
    await expectAuthorizationRun(run, fixture, asAdmin, snapshot);
  });

  it('covers every admin route, every field of every body and every limit member', () => {
    const fieldsOf = (route: AdminRoute) => ADMIN_AUTHORIZATION_CASES.filter(entry => entry.route === route).map(entry => entry.field);
    const covered = (route: AdminRoute, field: string) => fieldsOf(route).some(name => name === field || name.startsWith(`${field}:`) || name.startsWith(`${field}.`));
    expect(ADMIN_ROUTES.filter(route => fieldsOf(route).length === 0)).toEqual([]);
    const missing = Object.entries(BODY_SCHEMAS).flatMap(([route, schema]) =>
      Object.keys(schema.shape).filter(field => !covered(route as AdminRoute, field)).map(field => `${route} ${field}`),
    );
    for (const route of ['POST /keys', 'PATCH /keys/:id'] as const) {
      missing.push(...Object.keys(keyLimitsSchema.shape).filter(member => !covered(route, `limits.${member}`)).map(member => `${route} limits.${member}`));
    }
    expect(missing).toEqual([]);
    expect([...OPERATIONS.keys()].sort()).toEqual([...ADMIN_ROUTES].sort());
  });
});
