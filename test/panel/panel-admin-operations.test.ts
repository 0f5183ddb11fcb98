import { ADMIN_OPERATIONS, USAGE_CSV_COLUMNS } from '@signalbox/accounts';
import { sampleUsageEntry } from '@signalbox/accounts/testing';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

const T0 = Date.UTC(2026, 0, 1);
const RANGE = `from=${T0}&to=${T0 + 3_600_000}`;
const NBSP = '\u00a0';

/** Spreadsheet-hostile model IDs a client could have sent, and the CSV cell each must become. */
const HOSTILE_MODELS: readonly [string, string][] = [
  [' =1+1', "' =1+1"],
  [`${NBSP}=1+1`, `'${NBSP}=1+1`],
  ['\t@SUM(A1)', `"'\t@SUM(A1)"`],
  ['＝1+1', "'＝1+1"],
  ['－1', "'－1"],
  [';=1+1', '";=1+1"'],
  ['a;b', '"a;b"'],
  ['a,b', '"a,b"'],
  ['plain-model', 'plain-model'],
];

type Caller = { admin: Record<string, string>; panel: Record<string, string> };

/**
 * The panel and the admin API mount one table of admin operations: whatever the admin API answers a
 * console token, the panel answers that token's session, byte for byte, CSV exports included.
 */
describe('the admin operations, through the admin API and through the panel', () => {
  let server: TestGateway;
  let accountId: string;
  const callers: Record<'operator' | 'account', Caller> = { operator: { admin: {}, panel: {} }, account: { admin: {}, panel: {} } };

  async function panelSession(token: string): Promise<Record<string, string>> {
    const login = await fetch(`${server.url}/panel/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ token }),
    });
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    return { cookie: login.headers.get('set-cookie')!.split(';')[0]!, origin: server.url, 'x-csrf-token': csrfToken };
  }

  async function call(path: string, headers: Record<string, string>, init: { method?: string; body?: unknown } = {}) {
    const response = await fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...headers, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  }

  beforeAll(async () => {
    server = await startTestGateway();
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const account = JSON.parse((await call('/admin/accounts', bearer(server.adminToken), { method: 'POST', body: { name: 'both-ways', balance: 3 } })).text) as { id: string };
    accountId = account.id;
    const created = await call('/admin/console-tokens', bearer(server.adminToken), { method: 'POST', body: { accountId, name: 'laptop' } });
    const consoleToken = (JSON.parse(created.text) as { secret: string }).secret;
    callers.operator = { admin: bearer(server.adminToken), panel: await panelSession(server.adminToken) };
    callers.account = { admin: bearer(consoleToken), panel: await panelSession(consoleToken) };
    for (const [index, [model]] of HOSTILE_MODELS.entries()) {
      const entry = sampleUsageEntry({ requestId: `req_csv_${index}`, time: T0 + index * 1_000, accountId, model, status: 404, outcome: 'error' });
      await server.store.commitUsage([{ entry, costMicros: 0 }]);
    }
  });
  afterAll(() => server.close(1_000));

  const reads = ADMIN_OPERATIONS.filter(operation => operation.method === 'get');
  const pathOf = (path: string) => {
    // A config version's id is its number: version 1, seeded from the config at start.
    const concrete = path.replace(':id', () => (path.startsWith('/config/') ? '1' : accountId));
    return concrete.startsWith('/usage') ? `${concrete}?${RANGE}` : concrete;
  };

  it.each(reads.flatMap(operation => (['operator', 'account'] as const).map(caller => [operation.path, caller] as const)))(
    'GET %s answers the %s the same through both',
    async (path, caller) => {
      const throughAdmin = await call(`/admin${pathOf(path)}`, callers[caller].admin);
      const throughPanel = await call(`/panel/api${pathOf(path)}`, callers[caller].panel);
      // Upstreams, alerts and the config are admin-only: an account gets the same 403 from both (each
      // in its own envelope); everything else answers the same bytes.
      if (caller === 'account' && (path === '/upstreams' || path === '/alerts' || path.startsWith('/config'))) {
        const parsed = (answer: { text: string }) => JSON.parse(answer.text) as { code?: string; error: { code: string } };
        expect([throughPanel.status, parsed(throughPanel).error.code]).toEqual([403, 'ADMIN_TOKEN_REQUIRED']);
        expect([throughAdmin.status, parsed(throughAdmin).code]).toEqual([403, 'ADMIN_TOKEN_REQUIRED']);
        return;
      }
      expect(throughAdmin.status).toBe(200);
      expect(throughPanel).toEqual(throughAdmin);
    },
  );

  it('makes a change through either and shows it through the other', async () => {
    const created = await call('/panel/api/keys', callers.account.panel, { method: 'POST', body: { name: 'made-in-panel' } });
    expect(created.status).toBe(201);
    const { key } = JSON.parse(created.text) as { key: { id: string } };
    const disabled = await call(`/admin/keys/${key.id}`, callers.account.admin, { method: 'PATCH', body: { status: 'disabled' } });
    expect(disabled.status).toBe(200);
    const listed = JSON.parse((await call('/panel/api/keys', callers.account.panel)).text) as { data: { id: string; status: string }[] };
    expect(listed.data.find(entry => entry.id === key.id)?.status).toBe('disabled');
  });

  it.each([
    ['the panel', '/panel/api/usage.csv', 'panel'],
    ['the admin API (format=csv)', '/admin/usage?format=csv', 'admin'],
    ['the admin API (usage.csv)', '/admin/usage.csv', 'admin'],
  ] as const)('exports hostile model IDs through %s as inert, whole cells', async (_name, path, through) => {
    const separator = path.includes('?') ? '&' : '?';
    const answer = await call(`${path}${separator}${RANGE}&accountId=${accountId}`, callers.operator[through]);
    expect([answer.status, answer.type]).toEqual([200, 'text/csv; charset=utf-8']);
    const lines = answer.text.split('\r\n').slice(1, -1);
    const model = USAGE_CSV_COLUMNS.indexOf('model');
    // Rows come newest first; every other cell of these rows is plain, so the cells split on commas outside quotes.
    const cells = lines.reverse().map(line => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map(cell => cell.replace(/,$/, ''))[model]);
    expect(cells).toEqual(HOSTILE_MODELS.map(([, cell]) => cell));
  });
});
