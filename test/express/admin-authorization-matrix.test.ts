import { ADMIN_ROUTES, AUTHORIZATION_RUNS, createAuthorizationFixture, expectAuthorizationRun, type AdminCaller, type AuthorizationFixture, type AuthorizationRun } from '@signalbox/accounts/testing';
import type { Router } from 'express';
import { adminHTTPCaller, startAuthorizationGateway } from '../helpers/start-authorization-gateway';
import type { TestGateway } from '../helpers/start-test-gateway';

/** `METHOD /path` of every route an Express router has. */
function routesOf(router: Router): string[] {
  return router.stack.flatMap(layer => {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
    return route ? Object.keys(route.methods).map(method => `${method.toUpperCase()} ${route.path}`) : [];
  });
}

/**
 * Whether a run is meant to change records: a write the identity may make. Every other run is a
 * read or a refusal, which must leave the records as they were (`expectAuthorizationRun` checks it
 * for every refusal), so those share one fixture and only these get one of their own.
 */
function changesRecords(run: AuthorizationRun): boolean {
  return !run.route.startsWith('GET ') && run.expected.status < 400;
}

describe('the admin API’s authorization model over HTTP: every route × every identity (admin, owner, viewer, another account) × every field', () => {
  let server: TestGateway;
  let asAdmin: AdminCaller;
  let shared: AuthorizationFixture;
  const createFixture = () => createAuthorizationFixture(asAdmin, async secret => adminHTTPCaller(server.url, secret));
  // Every record in the store, as one JSON text: compared whole, it costs a string comparison
  // rather than a deep one, whatever the number of records the runs before have made.
  const snapshot = async () =>
    JSON.stringify(
      [await server.store.listAccounts(), await server.store.listKeys(), await server.store.listConsoleTokens(), await server.store.listAudit({}, { limit: 1000 })],
      undefined,
      1,
    );
  beforeAll(async () => {
    server = await startAuthorizationGateway();
    asAdmin = adminHTTPCaller(server.url, server.adminToken);
    shared = await createFixture();
  });
  afterAll(() => server.close(1_000));

  it('has a case for every route the admin router serves', () => {
    expect(routesOf(server.gateway.createAdminRouter(server.admin)).sort()).toEqual([...ADMIN_ROUTES].sort());
  });

  // The reads and refusals first, while the store holds the shared fixture alone.
  it.each(AUTHORIZATION_RUNS.filter(run => !changesRecords(run)))('$route $field, as $identity: $expected.status $expected.code', async run => {
    await expectAuthorizationRun(run, shared, asAdmin, snapshot);
  });

  it.each(AUTHORIZATION_RUNS.filter(changesRecords))('$route $field, as $identity: $expected.status $expected.code', async run => {
    await expectAuthorizationRun(run, await createFixture(), asAdmin, snapshot);
  });
});
