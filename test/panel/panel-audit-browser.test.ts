import request from 'supertest';
import { launchChromium, type Browser } from '../helpers/launch-chromium';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

/**
 * Roles and the audit log in headless Chromium against the example server on 127.0.0.1: an
 * account's owner adds a member and changes a key in the panel and reads who did what on the Audit
 * log page; its viewer sees the keys with no form and no actions, and neither of those pages.
 */
describe('roles and the audit log in a real browser', () => {
  let server: TestGateway;
  let browser: Browser;
  let accountId: string;
  const tokens: { owner?: string; viewer?: string } = {};
  const asAdmin = () => ({ authorization: `Bearer ${server.adminToken}` });
  const page = () => browser.page;

  async function logIn(token: string): Promise<void> {
    await browser.context.clearCookies();
    await page().goto(`${server.url}/panel`);
    await page().getByLabel('Console token').fill(token);
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().getByRole('heading', { name: 'Models' }).waitFor();
  }

  beforeAll(async () => {
    server = await startTestGateway();
    browser = await launchChromium();
    accountId = (await request(server.url).post('/admin/accounts').set(asAdmin()).send({ name: 'audited', balance: 5 }).expect(201)).body.id;
    await request(server.url).post('/admin/keys').set(asAdmin()).send({ accountId, name: 'ci' }).expect(201);
    for (const [role, name] of [['owner', 'alice'], ['viewer', 'victor']] as const) {
      tokens[role] = (await request(server.url).post('/admin/console-tokens').set(asAdmin()).send({ accountId, name, role }).expect(201)).body.secret;
    }
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close(1_000);
  });
  afterEach(() => {
    expect(browser.consoleErrors.splice(0)).toEqual([]);
  });

  it('lets an owner add a viewer on the Members page, its token shown once', async () => {
    await logIn(tokens.owner!);
    await page().getByRole('link', { name: 'Members' }).click();
    await page().getByLabel('Name').fill('vera');
    await page().getByLabel('Role').selectOption('viewer');
    await page().getByRole('button', { name: 'Create console token' }).click();
    const secret = (await page().locator('code.key-secret').textContent())!;
    expect(secret).toMatch(/^sbx-console-[A-Za-z0-9]{40}$/);
    await page().locator('tr', { hasText: 'vera' }).getByText('viewer').waitFor();
    await browser.screenshot('members');
    await page().getByRole('button', { name: 'Done' }).click();
    const me = await request(server.url).get('/admin/me').set({ authorization: `Bearer ${secret}` }).expect(200);
    expect([me.body.role, me.body.account.id]).toEqual(['viewer', accountId]);
  });

  it('shows an owner the change it made in the panel, by its token name, with what changed and from where', async () => {
    await page().getByRole('link', { name: 'Keys' }).click();
    await page().getByRole('button', { name: 'Disable ci' }).click();
    await page().locator('tr', { hasText: 'ci' }).getByText('disabled').waitFor();
    await page().getByRole('link', { name: 'Audit log' }).click();
    const row = page().locator('table.audit tbody tr').first();
    await row.getByText('console:alice').waitFor();
    expect(await row.locator('td.change').textContent()).toBe('status: "active" → "disabled", disabledBy: null → "account"');
    expect(await row.textContent()).toMatch(/127\.0\.0\.1.*req_/);
    // The rest are older: the member it added, and the operator's account, key and two tokens.
    expect(await page().locator('table.audit tbody tr').count()).toBe(6);
    await browser.screenshot('audit');
  });

  it('filters by entity, and downloads the same entries as the API exports', async () => {
    await page().getByLabel('Entity').selectOption('console-token');
    await page().getByRole('button', { name: 'Apply' }).click();
    await page().locator('table.audit tbody tr').nth(1).waitFor();
    // Exactly three rows: a third there and no fourth. Located rather than polled with a string
    // predicate, which the page's CSP (no 'unsafe-eval') refuses once Playwright polls it in the page.
    const rows = page().locator('table.audit tbody tr');
    await rows.nth(2).waitFor();
    await rows.nth(3).waitFor({ state: 'detached' });
    const csv = (await page().evaluate("fetch('/panel/api/audit.csv?entityType=console-token').then(r => r.text())")) as string;
    const fromAPI = await request(server.url).get('/admin/audit.csv').query({ entityType: 'console-token' }).set(asAdmin()).expect(200);
    expect(csv).toBe(fromAPI.text);
    expect(csv).not.toContain(tokens.owner!);
    expect(csv).not.toContain(tokens.viewer!);
  });

  it('shows a viewer the keys without a form or actions, and no Members or Audit log page', async () => {
    await logIn(tokens.viewer!);
    expect(await page().locator('.who').textContent()).toBe('Account: audited (viewer)');
    expect(await page().getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(await page().getByRole('link', { name: 'Members' }).count()).toBe(0);
    await page().getByRole('link', { name: 'Keys' }).click();
    await page().locator('tr', { hasText: 'ci' }).waitFor();
    expect(await page().getByRole('heading', { name: 'Create a key' }).count()).toBe(0);
    expect(await page().getByRole('button', { name: /Enable ci|Disable ci/ }).count()).toBe(0);
    await browser.screenshot('keys-viewer');
    const refused = (await page().evaluate(
      "fetch('/panel/api/audit').then(async r => [r.status, (await r.json()).error.code])",
    )) as [number, string];
    expect(refused).toEqual([403, 'CONSOLE_ROLE_FORBIDDEN']);
  });
});
