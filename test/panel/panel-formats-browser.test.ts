import OpenAI from 'openai';
import type { ConsoleMessage, Response, Route } from 'playwright-core';
import request from 'supertest';
import { launchChromium, type Browser } from '../helpers/launch-chromium';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

/** The browser's region: German formats in Berlin's time zone, far from the US English a page might assume. */
const REGION = { locale: 'de-DE', timezoneId: 'Europe/Berlin' };
const MONEY = new Intl.NumberFormat(REGION.locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });
const TIME = new Intl.DateTimeFormat(REGION.locale, { dateStyle: 'short', timeStyle: 'medium', timeZone: REGION.timezoneId });

/**
 * The panel in headless Chromium set to German in Berlin, with an account's console token: one way
 * of writing dates, numbers and money on every page, in the browser's locale; a login page that
 * loads without an error answer; a loading state before the first usage page; statuses coloured by
 * class; charts that span the requests. Screenshots land in .test-results/screenshots.
 */
describe('the panel formats and states in a real browser', () => {
  let server: TestGateway;
  let browser: Browser;
  let account: { id: string; consoleToken: string; apiKey: string };
  const requestIds: { completed?: string; missing?: string } = {};
  const page = () => browser.page;
  const asAdmin = () => ({ authorization: `Bearer ${server.adminToken}` });

  beforeAll(async () => {
    server = await startTestGateway();
    browser = await launchChromium(REGION);
    const created = await request(server.url).post('/admin/accounts').set(asAdmin()).send({ name: 'team-de', balance: 12.5 }).expect(201);
    const token = await request(server.url).post('/admin/console-tokens').set(asAdmin()).send({ accountId: created.body.id, name: 'panel' }).expect(201);
    const key = await request(server.url).post('/admin/keys').set(asAdmin()).send({ accountId: created.body.id, name: 'team-de key' }).expect(201);
    account = { id: created.body.id, consoleToken: token.body.secret, apiKey: key.body.secret };
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: account.apiKey, maxRetries: 0 });
    requestIds.completed = (await openai.responses.create({ model: 'signalbox-sim', input: 'Hallo' }).withResponse()).request_id!;
    const missing = await openai.responses.create({ model: 'no-such-model', input: 'Hallo?' }).catch((error: unknown) => error as InstanceType<typeof OpenAI.APIError>);
    requestIds.missing = (missing as InstanceType<typeof OpenAI.APIError>).requestID!;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close(1_000);
  });
  afterEach(() => {
    expect(browser.consoleErrors.splice(0)).toEqual([]);
  });

  it('opens the login page with no error answer and nothing in the console, before a login and after a logout', async () => {
    const messages: string[] = [];
    const failures: string[] = [];
    const onConsole = (message: ConsoleMessage) => messages.push(`${message.type()}: ${message.text()}`);
    const onResponse = (response: Response) => void (response.status() >= 400 && failures.push(`${response.status()} ${response.url()}`));
    page().on('console', onConsole).on('response', onResponse);
    await page().goto(`${server.url}/panel`);
    await page().getByLabel('Console token').waitFor();
    await page().getByLabel('Console token').fill(account.consoleToken);
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().getByRole('heading', { name: 'Models' }).waitFor();
    await page().getByRole('button', { name: 'Log out' }).click();
    await page().getByLabel('Console token').waitFor();
    await page().reload();
    await page().getByLabel('Console token').waitFor();
    page().off('console', onConsole).off('response', onResponse);
    expect({ messages, failures }).toEqual({ messages: [], failures: [] });
  });

  it("writes prices in the browser's currency format and counts with its separators", async () => {
    await page().goto(`${server.url}/panel`);
    await page().getByLabel('Console token').fill(account.consoleToken);
    await page().getByRole('button', { name: 'Log in' }).click();
    const row = page().locator('table.models tbody tr', { has: page().locator('code.model-id', { hasText: /^signalbox-sim$/ }) });
    await row.waitFor();
    const cells = (await row.locator('td').allTextContents()).map(text => text.trim());
    expect(cells[2]).toBe(`${MONEY.format(0.5)} / ${MONEY.format(1.5)}`);
    expect(cells[2]).toMatch(/^0,50\s\$ \/ 1,50\s\$$/);
    expect(cells[3]).toBe('128.000 tokens');
    await browser.screenshot('formats-models');
  });

  it('shows that the first page of usage is loading, not that no request matches, until it arrives', async () => {
    let release!: () => void;
    const arrived = new Promise<void>(resolve => (release = resolve));
    const isUsagePage = (url: URL) => url.pathname === '/panel/api/usage';
    const hold = async (route: Route) => {
      await arrived;
      await route.continue();
    };
    await page().route(isUsagePage, hold);
    await page().getByRole('link', { name: 'Usage' }).click();
    await page().getByRole('status').filter({ hasText: 'Loading requests…' }).waitFor();
    expect(await page().getByText('No requests match these filters.').count()).toBe(0);
    release();
    await page().locator(`tr[data-request-id="${requestIds.completed}"]`).waitFor();
    expect(await page().getByText('Loading requests…').count()).toBe(0);
    await page().unroute(isUsagePage, hold);
  });

  it('colours a status by its class, and writes times and costs as the browser does', async () => {
    const api = await request(server.url).get('/admin/usage').set({ authorization: `Bearer ${account.consoleToken}` }).expect(200);
    const apiRow = (id: string) => api.body.data.find((row: { requestId: string }) => row.requestId === id);
    const status = (id: string) => page().locator(`tr[data-request-id="${id}"] .status`);
    await status(requestIds.missing!).waitFor();
    const look = (id: string) =>
      status(id).evaluate(element => {
        // Run in the page (the tests are type-checked without the DOM library).
        const { getComputedStyle } = globalThis as unknown as { getComputedStyle(target: unknown): { color: string } };
        return [element.className, element.textContent, getComputedStyle(element).color];
      });
    expect(await look(requestIds.completed!)).toEqual(['status status-success', '200', 'rgb(21, 128, 61)']);
    expect(await look(requestIds.missing!)).toEqual(['status status-client-error', '404', 'rgb(161, 92, 0)']);

    const cells = (await page().locator(`tr[data-request-id="${requestIds.completed}"] td`).allTextContents()).map(text => text.trim());
    expect(cells[0]).toBe(TIME.format(new Date(apiRow(requestIds.completed!).time)));
    expect(cells[0]).toMatch(/^\d{2}\.\d{2}\.\d{2}, \d{2}:\d{2}:\d{2}$/);
    expect(cells[3]).toBe(MONEY.format(apiRow(requestIds.completed!).cost));
    expect(cells[3]).toMatch(/^0,\d+\s\$$/);
    expect(await page().locator('p[aria-live]').textContent()).toMatch(/^Refreshed every 3 s, last at \d{2}:\d{2}:\d{2}\.$/);
  });

  it('draws the charts over the minutes that hold requests, not over an hour of empty buckets', async () => {
    const summary = await request(server.url)
      .get('/admin/usage/summary?groupBy=model&bucket=minute')
      .set({ authorization: `Bearer ${account.consoleToken}` })
      .expect(200);
    const starts = (summary.body.data as { bucketStart: string }[]).map(row => Date.parse(row.bucketStart));
    const buckets = (Math.max(...starts) - Math.min(...starts)) / 60_000 + 1;
    expect(Date.parse(summary.body.to) - Date.parse(summary.body.from)).toBeGreaterThanOrEqual(60 * 60_000);
    const table = page().locator('table.chart-data', { has: page().locator('caption', { hasText: 'Requests by model' }) });
    await table.locator('tbody tr').first().waitFor({ state: 'attached' });
    const times = await table.locator('tbody th').allTextContents();
    expect(times).toHaveLength(buckets);
    expect(times[0]).toBe(TIME.format(new Date(Math.min(...starts))));
    const errors = page().locator('table.chart-data', { has: page().locator('caption', { hasText: 'Errors by status' }) });
    expect(await errors.locator('thead th').allTextContents()).toEqual(['Time', '404']);
    await page().locator('.chart canvas').first().waitFor();
    await browser.screenshot('formats-usage');
  });

  it('writes the balance and its history in the same currency format as prices and costs', async () => {
    await page().getByRole('link', { name: 'Balance' }).click();
    await page().locator('table.events tbody tr', { hasText: 'opening' }).waitFor();
    const { balanceMicros } = (await request(server.url).get(`/admin/accounts/${account.id}`).set(asAdmin()).expect(200)).body;
    // 12.50 opened, less what the one completed request cost.
    expect(await page().locator('.balance-amount').textContent()).toBe(MONEY.format(balanceMicros / 1_000_000));
    expect(await page().locator('.balance-amount').textContent()).toMatch(/^12,4\d+\s\$$/);
    const opening = (await page().locator('table.events tbody tr', { hasText: 'opening' }).locator('td').allTextContents()).map(text => text.trim());
    expect(opening.slice(2)).toEqual([MONEY.format(12.5), MONEY.format(12.5)]);
    await browser.screenshot('formats-balance');
  });
});
