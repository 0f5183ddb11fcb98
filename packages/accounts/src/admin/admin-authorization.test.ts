import { GatewayError } from '@signalbox/core';
import { keyLimitsSchema } from '../keys/key-limits';
import { createMemoryAccountStore } from '../store/create-memory-account-store';
import {
  ADMIN_AUTHORIZATION_CASES,
  ADMIN_ROUTES,
  AUTHORIZATION_RUNS,
  CASE_DEFAULT_KEY_LIMITS,
  CASE_ROUTES,
  createAuthorizationFixture,
  expectAuthorizationRun,
  type AdminCaller,
  type AdminRoute,
} from '../testing';
import {
  adjustBalanceSchema,
  createAccountSchema,
  createConsoleTokenSchema,
  createKeySchema,
  updateAccountSchema,
  updateConsoleTokenSchema,
  updateKeySchema,
} from './admin-schemas';
import { ADMIN_IDENTITY, type ConsoleIdentity } from './console-identity';
import { createAdminService, type AdminService } from './create-admin-service';

type Call = (admin: AdminService, identity: ConsoleIdentity, id: string, body: Record<string, unknown>) => Promise<unknown>;

/** Each admin route as the service method the admin router calls for it. */
const SERVICE_CALLS: Record<AdminRoute, Call> = {
  'GET /me': (admin, identity) => admin.me(identity),
  'GET /routes': (admin, identity) => admin.listRoutes(identity),
  'GET /accounts': (admin, identity) => admin.listAccounts(identity),
  'POST /accounts': (admin, identity, _id, body) => admin.createAccount(identity, body),
  'GET /accounts/:id': (admin, identity, id) => admin.getAccount(identity, id),
  'PATCH /accounts/:id': (admin, identity, id, body) => admin.updateAccount(identity, id, body),
  'POST /accounts/:id/balance': (admin, identity, id, body) => admin.adjustBalance(identity, id, body),
  'GET /accounts/:id/balance-events': (admin, identity, id) => admin.listBalanceEvents(identity, id, {}),
  'GET /keys': (admin, identity) => admin.listKeys(identity),
  'POST /keys': (admin, identity, _id, body) => admin.createKey(identity, body),
  'PATCH /keys/:id': (admin, identity, id, body) => admin.updateKey(identity, id, body),
  'GET /console-tokens': (admin, identity) => admin.listConsoleTokens(identity),
  'POST /console-tokens': (admin, identity, _id, body) => admin.createConsoleToken(identity, body),
  'PATCH /console-tokens/:id': (admin, identity, id, body) => admin.updateConsoleToken(identity, id, body),
  'GET /usage': (admin, identity) => admin.listUsage(identity, {}),
  'GET /usage/summary': (admin, identity) => admin.summarizeUsage(identity, {}),
};

/** The routes that answer 201 when they succeed: they create a record. */
const CREATING: ReadonlySet<AdminRoute> = new Set(['POST /accounts', 'POST /keys', 'POST /console-tokens']);

/** The body each write route validates: the fields the cases must cover. */
const BODY_SCHEMAS: Partial<Record<AdminRoute, { shape: Record<string, unknown> }>> = {
  'POST /accounts': createAccountSchema,
  'PATCH /accounts/:id': updateAccountSchema,
  'POST /accounts/:id/balance': adjustBalanceSchema,
  'POST /keys': createKeySchema,
  'PATCH /keys/:id': updateKeySchema,
  'POST /console-tokens': createConsoleTokenSchema,
  'PATCH /console-tokens/:id': updateConsoleTokenSchema,
};

function callerFor(admin: AdminService, identity: ConsoleIdentity): AdminCaller {
  return async call => {
    try {
      const body = await SERVICE_CALLS[call.route](admin, identity, call.id ?? '', call.body ?? {});
      return { status: CREATING.has(call.route) ? 201 : 200, body: body as Record<string, unknown> };
    } catch (error) {
      if (!GatewayError.isInstance(error)) throw error;
      return { status: error.status, body: {}, code: error.code, ...(error.param !== undefined && { param: error.param }) };
    }
  };
}

async function setUp() {
  const store = createMemoryAccountStore({ holdSweepIntervalMs: 0 });
  const admin = createAdminService({ store, adminTokenDigests: [], routes: () => CASE_ROUTES, defaultKeyLimits: CASE_DEFAULT_KEY_LIMITS });
  const asAdmin = callerFor(admin, ADMIN_IDENTITY);
  const fixture = await createAuthorizationFixture(asAdmin, async secret => callerFor(admin, await admin.authenticateToken(secret)));
  const snapshot = async () => ({ accounts: await store.listAccounts(), keys: await store.listKeys(), tokens: await store.listConsoleTokens() });
  return { asAdmin, fixture, snapshot };
}

describe('the admin service’s authorization model: every route × both identities × every field', () => {
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
    expect(Object.keys(SERVICE_CALLS).sort()).toEqual([...ADMIN_ROUTES].sort());
  });
});
