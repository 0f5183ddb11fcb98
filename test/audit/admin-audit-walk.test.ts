import { ADMIN_OPERATIONS, AUDIT_CSV_COLUMNS, type AccountStore, type AuditEntry } from '@signalbox/accounts';
import { CASE_UPSTREAM } from '@signalbox/accounts/testing';
import request from 'supertest';
import { startAuthorizationGateway } from '../helpers/start-authorization-gateway';
import type { TestGateway } from '../helpers/start-test-gateway';

/** Records made in the store directly, so they leave nothing in the audit log; the config in force (version 1, seeded at start). */
type Records = { accountId: string; keyId: string; consoleTokenId: string; configDocument: { routes: unknown[] } };

/** A route the walk adds to the config, so the change writes a new version. */
const WALKED_ROUTE = { model: 'walked-model', interfaces: ['chat'], targets: [{ upstream: 'simulator-messages', model: 'sim-1' }] };
const configEntity = (answer: Record<string, unknown>): [string, string] => ['config', String(answer.version)];

/** What one change sends, and the entity and action its one audit entry must name. */
type ChangeCall = (records: Records) => { id?: string; body: Record<string, unknown>; entity: (answer: Record<string, unknown>) => [string, string]; action: string };

/** One call for every change the admin API has: a new operation without one fails the walk. */
const CHANGES: Readonly<Record<string, ChangeCall>> = {
  'POST /accounts': () => ({ body: { name: 'walked', balance: 2 }, entity: answer => ['account', String(answer.id)], action: 'create' }),
  'PATCH /accounts/:id': ({ accountId }) => ({ id: accountId, body: { name: 'renamed' }, entity: () => ['account', accountId], action: 'update' }),
  'POST /accounts/:id/balance': ({ accountId }) => ({ id: accountId, body: { delta: 5 }, entity: () => ['account', accountId], action: 'adjust-balance' }),
  'POST /keys': ({ accountId }) => ({ body: { accountId, name: 'walked' }, entity: answer => ['key', (answer.key as { id: string }).id], action: 'create' }),
  'PATCH /keys/:id': ({ keyId }) => ({ id: keyId, body: { status: 'disabled' }, entity: () => ['key', keyId], action: 'update' }),
  'POST /console-tokens': ({ accountId }) => ({ body: { accountId, name: 'walked', role: 'viewer' }, entity: answer => ['console-token', (answer.token as { id: string }).id], action: 'create' }),
  'PATCH /console-tokens/:id': ({ consoleTokenId }) => ({ id: consoleTokenId, body: { role: 'viewer' }, entity: () => ['console-token', consoleTokenId], action: 'update' }),
  'POST /budgets': ({ keyId }) => ({ body: { keyId, period: 'day', limit: 5 }, entity: () => ['budget', `${keyId}:day`], action: 'set' }),
  'POST /upstreams/:id/enable': () => ({ id: CASE_UPSTREAM, body: { credential: 'default' }, entity: () => ['upstream-credential', `${CASE_UPSTREAM}/default`], action: 'enable' }),
  'POST /config/versions': ({ configDocument }) => ({
    body: { document: { ...configDocument, routes: [...configDocument.routes, WALKED_ROUTE] }, baseVersion: 1 },
    entity: configEntity,
    action: 'change',
  }),
  // Walked after the change above: version 1 again, as version 3.
  'POST /config/versions/:id/rollback': () => ({ id: '1', body: {}, entity: configEntity, action: 'rollback' }),
};

async function allEntries(store: AccountStore): Promise<AuditEntry[]> {
  return (await store.listAudit({}, { limit: 1000 })).entries;
}

describe('the audit log, walking every admin operation once', () => {
  let server: TestGateway;
  let records: Records;
  beforeAll(async () => {
    server = await startAuthorizationGateway();
    const account = await server.store.createAccount({ name: 'walk', balanceMicros: 1_000_000 });
    const { key } = await server.store.createKey({ accountId: account.id, name: 'walk' });
    const { token } = await server.store.createConsoleToken({ accountId: account.id, name: 'walk' });
    const config = await request(server.url).get('/admin/config').set({ authorization: `Bearer ${server.adminToken}` }).expect(200);
    expect(config.body.version).toBe(1);
    records = { accountId: account.id, keyId: key.id, consoleTokenId: token.id, configDocument: config.body.document };
  });
  afterAll(() => server.close(1_000));

  it('has a change call for every operation that is not a read', () => {
    const changes = ADMIN_OPERATIONS.filter(operation => operation.method !== 'get').map(operation => `${operation.method.toUpperCase()} ${operation.path}`);
    expect(changes.sort()).toEqual(Object.keys(CHANGES).sort());
  });

  it('records each change exactly once, with who, what, when and from where, and no read at all', async () => {
    for (const operation of ADMIN_OPERATIONS) {
      const route = `${operation.method.toUpperCase()} ${operation.path}`;
      const call = CHANGES[route]?.(records);
      // A read of a config version reads version 1; the other reads name the account.
      const path = `/admin${operation.path.replace(':id', call?.id ?? (operation.path.startsWith('/config/') ? '1' : records.accountId))}`;
      const before = await allEntries(server.store);
      const started = Date.now();
      const response = await request(server.url)[operation.method](path).set({ authorization: `Bearer ${server.adminToken}`, 'user-agent': 'audit-walk/1.0' }).send(call?.body);
      expect([route, response.status]).toEqual([route, operation.status]);
      const added = (await allEntries(server.store)).slice(0, -before.length || undefined);
      if (!call) {
        expect([route, added]).toEqual([route, []]);
        continue;
      }
      const [entityType, entityId] = call.entity(response.body as Record<string, unknown>);
      expect([route, added.length]).toEqual([route, 1]);
      expect(added[0]).toMatchObject({ actor: 'admin-token', entityType, entityId, action: call.action, userAgent: 'audit-walk/1.0', requestId: response.headers['x-request-id'] });
      expect(added[0]!.ip).toMatch(/127\.0\.0\.1$/);
      expect(added[0]!.time).toBeGreaterThanOrEqual(started);
      expect(added[0]!.after).toBeDefined();
      if ('secret' in response.body) expect(JSON.stringify(added[0])).not.toContain(String(response.body.secret));
    }
  });

  it('shows a change before and after, and a console token its owner created as that token', async () => {
    const { secret } = await server.store.createConsoleToken({ accountId: records.accountId, name: 'alice' });
    const asOwner = { authorization: `Bearer ${secret}` };
    const created = await request(server.url).post('/admin/keys').set(asOwner).send({ name: 'from-owner' }).expect(201);
    const renamed = await request(server.url).patch(`/admin/keys/${created.body.key.id}`).set(asOwner).send({ name: 'renamed' }).expect(200);
    const page = await request(server.url).get('/admin/audit').query({ actor: 'console:alice' }).set(asOwner).expect(200);
    expect(page.body.data.map((entry: { action: string }) => entry.action)).toEqual(['update', 'create']);
    expect(page.body.data[0]).toMatchObject({ entityId: created.body.key.id, accountId: records.accountId, before: { name: 'from-owner' }, after: { name: 'renamed' }, requestId: renamed.headers['x-request-id'] });
    expect(page.body.data[1].before).toBeNull();
  });

  it('lets an owner read only its own account’s entries, pages with a cursor and exports CSV', async () => {
    const other = await server.store.createAccount({ name: 'other', balanceMicros: 0 });
    const { secret } = await server.store.createConsoleToken({ accountId: other.id, name: 'sam' });
    await request(server.url).post('/admin/keys').set({ authorization: `Bearer ${secret}` }).send({ name: 'theirs' }).expect(201);
    const asOther = { authorization: `Bearer ${secret}` };
    const theirs = await request(server.url).get('/admin/audit').set(asOther).expect(200);
    expect(theirs.body.data).toEqual([expect.objectContaining({ actor: 'console:sam', accountId: other.id })]);
    const named = await request(server.url).get('/admin/audit').query({ accountId: records.accountId }).set(asOther).expect(200);
    expect(named.body.data).toEqual([]);

    const first = await request(server.url).get('/admin/audit').query({ limit: 2 }).set({ authorization: `Bearer ${server.adminToken}` }).expect(200);
    const second = await request(server.url).get('/admin/audit').query({ limit: 2, cursor: first.body.nextCursor }).set({ authorization: `Bearer ${server.adminToken}` }).expect(200);
    const all = await allEntries(server.store);
    expect([...first.body.data, ...second.body.data].map((entry: { id: string }) => entry.id)).toEqual(all.slice(0, 4).map(entry => entry.id));

    const csv = await request(server.url).get('/admin/audit').query({ format: 'csv', entityType: 'account' }).set({ authorization: `Bearer ${server.adminToken}` }).expect(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(lines.length - 1).toBe(all.filter(entry => entry.entityType === 'account').length);
    const bad = await request(server.url).get('/admin/audit').query({ from: 'yesterday' }).set({ authorization: `Bearer ${server.adminToken}` }).expect(400);
    expect([bad.body.code, bad.body.error.param, bad.body.request_id]).toEqual(['INVALID_REQUEST', 'from', bad.headers['x-request-id']]);
  });
});
