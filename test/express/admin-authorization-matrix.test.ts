import { ADMIN_AUTHORIZATION_CASES, ADMIN_ROUTES, createAuthorizationFixture, type AdminCaller } from '@signalbox/accounts/testing';
import type { Router } from 'express';
import { adminHTTPCaller, startAuthorizationGateway } from '../helpers/start-authorization-gateway';
import type { TestGateway } from '../helpers/start-test-gateway';

const RUNS = ADMIN_AUTHORIZATION_CASES.flatMap(entry => [
  { ...entry, identity: 'admin' as const, expected: entry.admin },
  { ...entry, identity: 'account' as const, expected: entry.account },
]);

/** `METHOD /path` of every route an Express router has. */
function routesOf(router: Router): string[] {
  return router.stack.flatMap(layer => {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
    return route ? Object.keys(route.methods).map(method => `${method.toUpperCase()} ${route.path}`) : [];
  });
}

describe('the admin API’s authorization model over HTTP: every route × both identities × every field', () => {
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

  it.each(RUNS)('$route $field, as $identity: $expected.status $expected.code', async run => {
    const fixture = await createAuthorizationFixture(asAdmin, async secret => adminHTTPCaller(server.url, secret));
    const snapshot = async () => [await server.store.listAccounts(), await server.store.listKeys(), await server.store.listConsoleTokens()];
    const before = await snapshot();
    const caller = run.identity === 'admin' ? asAdmin : fixture.asAccount;
    const answer = await caller({ route: run.route, ...(run.id && { id: run.id(fixture) }), ...(run.body && { body: run.body(fixture) }) });
    const { effect, ...expected } = run.expected;
    expect({ status: answer.status, code: answer.code, param: answer.param }).toEqual({ code: undefined, param: undefined, ...expected });
    if (answer.status >= 400) expect(await snapshot()).toEqual(before);
    if (effect) expect(run.route === 'POST /keys' ? answer.body.key : answer.body).toMatchObject(effect);
  });
});
