import OpenAI from 'openai';
import request from 'supertest';
import { launchChromium, type Browser } from '../helpers/launch-chromium';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

type Document = { upstreams: Record<string, unknown>; routes: { model: string }[] };

const ADDED_ROUTE = { model: 'sim-added-in-panel', interfaces: ['responses', 'chat'], targets: [{ upstream: 'simulator-responses', model: 'sim-1' }] };

/**
 * The Config page in headless Chromium, as the operator uses it: edit the routes as JSON, save a
 * new version that the gateway serves at once, see what it changed, have a bad edit refused with
 * its path, and roll back. Screenshots land in .test-results/screenshots.
 */
describe('the panel Config page in a real browser', () => {
  let server: TestGateway;
  let browser: Browser;
  const page = () => browser.page;
  const editor = () => page().getByLabel(/Routes and upstreams/);
  const openai = () => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });

  beforeAll(async () => {
    server = await startTestGateway();
    browser = await launchChromium();
    await page().goto(`${server.url}/panel`);
    await page().getByLabel('Console token').fill(server.adminToken);
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().getByRole('link', { name: 'Config' }).click();
    await page().getByRole('heading', { name: 'Config', level: 1 }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close(1_000);
  });
  afterEach(() => {
    expect(browser.consoleErrors.splice(0)).toEqual([]);
  });

  async function editDocument(change: (document: Document) => Document) {
    const document = JSON.parse(await editor().inputValue()) as Document;
    await editor().fill(JSON.stringify(change(document), null, 2));
    await page().getByRole('button', { name: 'Save as a new version' }).click();
  }

  it('shows version 1, seeded from the config by config-file, in the versions list', async () => {
    await page().getByText('Version 1 by config-file').waitFor();
    // The versions list comes with a second request, after the version in force.
    await page().locator('tr[data-version="1"]').waitFor();
    expect(await page().locator('tr[data-version]').count()).toBe(1);
    expect(await page().locator('tr[data-version="1"] td').nth(1).textContent()).toBe('config-file');
  });

  it('saves an added route as version 2 by the admin token, shows its diff, and the gateway serves it at once', async () => {
    await editDocument(document => ({ ...document, routes: [...document.routes, ADDED_ROUTE] }));
    await page().getByRole('status').filter({ hasText: 'Version 2 is in force.' }).waitFor();
    await page().locator('tr[data-version="2"]').waitFor();
    expect(await page().locator('tr[data-version="2"] td').nth(1).textContent()).toBe('admin-token');
    const added = page().locator('.config-diff li.change-added');
    expect(await added.count()).toBe(1);
    expect(await added.locator('code').textContent()).toMatch(/^routes\.\d+$/);
    await browser.screenshot('config-diff');
    const answer = await openai().responses.create({ model: ADDED_ROUTE.model, input: 'hello' });
    expect(answer.model).toBe(ADDED_ROUTE.model);
  });

  it('refuses a bad edit whole, naming the path, and nothing changes', async () => {
    await editDocument(document => ({ ...document, routes: [...document.routes, { ...ADDED_ROUTE, model: 'broken', targets: [{ upstream: 'nowhere', model: 'x' }] }] }));
    const alert = page().getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/routes\.\d+\.targets\.0\.upstream: unknown upstream 'nowhere'/);
    const versions = await request(server.url).get('/admin/config/versions').set({ authorization: `Bearer ${server.adminToken}` }).expect(200);
    expect(versions.body.data.map((version: { version: number }) => version.version)).toEqual([2, 1]);
    await browser.screenshot('config-refused');
  });

  it('rolls back to version 1 as version 3, and the added route is gone', async () => {
    await page().getByRole('button', { name: 'Roll back to version 1' }).click();
    await page().getByRole('status').filter({ hasText: 'Version 3 is in force.' }).waitFor();
    expect(await page().locator('tr[data-version="3"] td').nth(1).textContent()).toContain('rollback to 1');
    expect(await page().locator('.config-diff li.change-removed').count()).toBe(1);
    const document = JSON.parse(await editor().inputValue()) as Document;
    expect(document.routes.map(route => route.model)).not.toContain(ADDED_ROUTE.model);
    await browser.screenshot('config-versions');
    await expect(openai().responses.create({ model: ADDED_ROUTE.model, input: 'hello' })).rejects.toMatchObject({ status: 404 });
  });
});
