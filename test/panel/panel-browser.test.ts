import OpenAI from 'openai';
import { launchChromium, type Browser } from '../helpers/launch-chromium';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

/**
 * The panel in headless Chromium against the example server on 127.0.0.1: what a person does with
 * it, click by click, with a screenshot of each page in .test-results/screenshots.
 */
describe('the panel in a real browser', () => {
  let server: TestGateway;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestGateway();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close(1_000);
  });
  afterEach(() => {
    // A CSP violation or a script error shows up here: the page must run without either.
    expect(browser.consoleErrors.splice(0)).toEqual([]);
  });

  const page = () => browser.page;
  const openai = (apiKey: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 });

  it('logs in with a console token into an HttpOnly, SameSite=Strict session the page cannot read', async () => {
    await page().goto(`${server.url}/panel`);
    await page().getByLabel('Console token').fill(server.adminToken);
    await browser.screenshot('login');
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().getByRole('heading', { name: 'Models' }).waitFor();
    const [cookie] = await browser.context.cookies(`${server.url}/panel`);
    expect(cookie).toMatchObject({ name: 'switchyard_panel', path: '/panel', httpOnly: true, sameSite: 'Strict', secure: false });
    expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000);
    // Evaluated in the page (a string: the tests are type-checked without the DOM library).
    const visible = (await page().evaluate('({ cookie: document.cookie, stored: localStorage.length + sessionStorage.length, url: location.href, html: document.documentElement.outerHTML })')) as Record<string, unknown>;
    expect(visible).toMatchObject({ cookie: '', stored: 0, url: `${server.url}/panel/models` });
    expect(visible.html).not.toContain(server.adminToken);
  });

  it('lists every route with its exact model ID, and the ID read from the page works with the openai SDK', async () => {
    const ids = await page().locator('code.model-id').allTextContents();
    expect(ids).toEqual(server.models);
    await page().getByRole('heading', { name: 'Snippets' }).waitFor();
    const snippets = await page().locator('.code-block pre').allTextContents();
    expect(snippets.join('\n')).toContain(`baseURL: '${server.url}/v1'`);
    expect(snippets.join('\n')).toContain(`export ANTHROPIC_BASE_URL=${server.url}\n`);
    await browser.screenshot('models');
    const response = await openai(server.demoKey).responses.create({ model: ids[0]!, input: 'Hello from the panel test' });
    expect(response.status).toBe('completed');
  });

  it('refuses a change the page script did not sign with the CSRF token', async () => {
    const status = await page().evaluate(async () => {
      const answer = await fetch('/panel/api/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'forged' }) });
      return [answer.status, ((await answer.json()) as { error: { code: string } }).error.code];
    });
    expect(status).toEqual([403, 'PANEL_REQUEST_FORBIDDEN']);
  });

  it('creates a key in the page, shows its secret once, and a key disabled in the page is refused with 401', async () => {
    await page().getByRole('link', { name: 'Keys' }).click();
    await page().getByRole('heading', { name: 'Keys' }).waitFor();
    const details = page().locator('details.create');
    if ((await details.getAttribute('open')) === null) await page().getByText('Create a key').click();
    await page().getByLabel('Name').fill('browser-key');
    await page().getByRole('button', { name: 'Create key' }).click();
    const secret = (await page().locator('code.key-secret').textContent())!;
    expect(secret).toMatch(/^sy-[A-Za-z0-9]{40}$/);
    await page().locator('tr', { hasText: 'browser-key' }).waitFor();
    await browser.screenshot('keys-created');

    expect((await openai(secret).responses.create({ model: server.models[0]!, input: 'Hello with a panel key' })).status).toBe('completed');

    await page().getByRole('button', { name: 'Done' }).click();
    expect(await page().locator('code.key-secret').count()).toBe(0);
    await page().getByRole('button', { name: 'Disable browser-key' }).click();
    await page().locator('tr', { hasText: 'browser-key' }).getByText('disabled').waitFor();
    await browser.screenshot('keys');
    const refused = await openai(secret)
      .responses.create({ model: server.models[0]!, input: 'Hello again' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((refused as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
  });
});
