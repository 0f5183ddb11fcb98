import { ADMIN_ROUTES, AUTHORIZATION_RUNS, createAuthorizationFixture, expectAuthorizationRun, type AdminCaller } from '@signalbox/accounts/testing';
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

describe('the admin API’s authorization model over HTTP: every route × every identity (admin, owner, viewer, another account) × every field', () => {
  let server: TestGateway;
  let asAdmin: AdminCaller;
  beforeAll(async () => {
    server = await startAuthorizationGateway();
    asAdmin = adminHTTPCaller(server.url, server.adminToken);
  });
  afterAll(() => server.close(1_000));

  it('has a case for every route the admin router serves', () => {
    expect(routesOf(server.gateway.createAdminRouter(server.admin)).sort()).toEqual([...ADMIN_ROUTES].sort());
  });

  it.each(AUTHORIZATION_RUNS)('$route $field, as $identity: $expected.status $expected.code', async run => {
    const fixture = await createAuthorizationFixture(asAdmin, async secret => adminHTTPCaller(server.url, secret));
    const snapshot = async () => [
      await server.store.listAccounts(),
      await server.store.listKeys(),
      await server.store.listConsoleTokens(),
      await server.store.listAudit({}, { limit: 1000 }),
    ];
    await expectAuthorizationRun(run, fixture, asAdmin, snapshot);
  });
});
