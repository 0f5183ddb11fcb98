import { launchChromium, type Browser } from '../helpers/launch-chromium';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/start-webhook-receiver';

const SECRET = 'whsec-panel-receiver-secret-0123456789';

/**
 * The admin console in Chromium while an alert is active: a banner on every page names it, and the
 * Alerts page lists it with each delivery attempt of its webhook (a 500, then delivered).
 */
describe('alerts in the panel, in a real browser', () => {
  let server: TestGateway;
  let receiver: WebhookReceiver;
  let browser: Browser;

  beforeAll(async () => {
    receiver = await startWebhookReceiver(SECRET, [500]);
    server = await startTestGateway({ alerts: { rules: { balanceBelowMicros: 1_000_000 }, webhook: { url: receiver.url, secret: SECRET } } });
    server.audit.remember([SECRET]);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close(1_000);
    receiver?.close();
  });
  afterEach(() => {
    expect(browser.consoleErrors.splice(0)).toEqual([]);
  });

  it('shows a banner while a low balance is active and the Alerts page with its deliveries', async () => {
    const account = await server.store.createAccount({ name: 'Low team', balanceMicros: 900_000 });
    const { secret } = await server.store.createKey({ accountId: account.id, name: 'k' });
    const answer = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-via-responses', input: 'hello', max_output_tokens: 16 }),
    });
    expect(answer.status).toBe(200);
    while (server.recentUsage().length < 1) await new Promise(resolve => setImmediate(resolve));
    await server.alerts!.idle();
    expect(receiver.deliveries).toHaveLength(2);

    const page = browser.page;
    await page.goto(`${server.url}/panel`);
    await page.getByLabel('Console token').fill(server.adminToken);
    await page.getByRole('button', { name: 'Log in' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'alert is active' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Balance of Low team is below 1');
    await banner.getByRole('link', { name: 'See alerts' }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.locator('table.deliveries tbody tr[data-outcome="delivered"]').waitFor();
    const outcomes = await page.locator('table.deliveries tbody tr').evaluateAll(rows => rows.map(row => row.getAttribute('data-outcome')));
    expect(outcomes).toEqual(['delivered', 'retrying']);
    await browser.screenshot('alerts-admin');
  }, 60_000);

  it("sets a key's daily budget on the Balance page, lists it, and the gateway then refuses a request past it", async () => {
    const account = await server.store.createAccount({ name: 'Budgeted team', balanceMicros: 100_000_000 });
    const { key, secret } = await server.store.createKey({ accountId: account.id, name: 'ci key' });
    const page = browser.page;
    await page.goto(`${server.url}/panel/balance`);
    await page.getByLabel('Account').selectOption(account.id);
    await page.getByLabel('For').selectOption(key.id);
    await page.getByLabel('Period').selectOption('day');
    await page.getByLabel('Limit (currency units)').fill('0.000001');
    await page.getByRole('button', { name: 'Set budget' }).click();
    await page.locator(`table.budgets tr[data-budget="${key.id}-day"]`).waitFor();
    expect(await server.store.listBudgets(account.id)).toEqual([expect.objectContaining({ keyId: key.id, period: 'day', limitMicros: 1 })]);
    const answer = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-via-responses', input: 'hello', max_output_tokens: 16 }),
    });
    expect([answer.status, ((await answer.json()) as { code?: string }).code]).toEqual([429, 'BUDGET_EXCEEDED']);
    await browser.screenshot('budgets-admin');
  }, 60_000);

  it("lists the keys of the account chosen last, when an earlier account's answer comes after it", async () => {
    const [first, second] = await Promise.all(['Earlier team', 'Later team'].map(name => server.store.createAccount({ name })));
    const [firstKey, secondKey] = await Promise.all([first!, second!].map(account => server.store.createKey({ accountId: account.id, name: `${account.name} key` })));
    const page = browser.page;
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>(resolve => (releaseFirst = resolve));
    const isFirstKeys = (url: URL) => url.pathname.endsWith('/keys') && url.searchParams.get('accountId') === first!.id;
    await page.route(isFirstKeys, async route => {
      await firstHeld;
      await route.continue();
    });
    try {
      await page.goto(`${server.url}/panel/balance`);
      await page.getByLabel('Account').selectOption(first!.id);
      await page.getByLabel('Account').selectOption(second!.id);
      const owners = page.getByLabel('For');
      await owners.locator(`option[value="${secondKey!.key.id}"]`).waitFor({ state: 'attached' });
      const firstAnswered = page.waitForResponse(response => isFirstKeys(new URL(response.url())));
      releaseFirst();
      await (await firstAnswered).finished();
      // One task later in the page, the late answer has been handled (applied, or dropped).
      await page.evaluate(() => new Promise(resolve => setTimeout(resolve, 0)));
      const values = await owners.locator('option').evaluateAll(options => options.map(option => option.getAttribute('value')));
      expect(values).toContain(secondKey!.key.id);
      expect(values).not.toContain(firstKey!.key.id);
    } finally {
      releaseFirst();
      await page.unroute(isFirstKeys);
    }
  }, 60_000);
});
