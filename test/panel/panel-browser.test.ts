import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import OpenAI from 'openai';
import request from 'supertest';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from '../../examples/server/src';
import type { LoopbackServer } from '../helpers/listen-on-loopback';
import { launchChromium, type Browser } from '../helpers/launch-chromium';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { startUsageReplayUpstream } from '../helpers/start-usage-replay-upstream';

type Account = { id: string; consoleToken: string; apiKey: string };

/** The keys of a pool of three behind one Messages upstream, for the Upstreams page. */
const POOL_KEYS = { PANEL_POOL_A: 'sk-panel-pool-a-7f3c9e1d', PANEL_POOL_B: 'sk-panel-pool-b-2b8d4a6f', PANEL_POOL_C: 'sk-panel-pool-c-9e5a1c3b' };

/** A pool of three keys of the embedded simulator, over the Messages protocol, for the Upstreams page. */
const POOLED_UPSTREAM = {
  protocol: 'anthropic-messages',
  baseURL: EMBEDDED_SIMULATOR,
  credentials: [
    { name: 'team-a', apiKeyEnv: 'PANEL_POOL_A', weight: 2 },
    { name: 'team-b', apiKeyEnv: 'PANEL_POOL_B' },
    { name: 'team-c', apiKeyEnv: 'PANEL_POOL_C' },
  ],
};
const POOLED_ROUTE = { model: 'sim-pooled', interfaces: ['responses', 'messages', 'chat'], targets: [{ upstream: 'pooled-messages', model: 'sim-1' }] };

/** A route whose Messages upstream reports 20,003 of 24,237 input tokens read from its prompt cache and 3,000 written. */
const CACHED_MODEL = 'sim-cached';
const CACHED_USAGE = {
  input_tokens: 1234,
  cache_creation_input_tokens: 3000,
  cache_read_input_tokens: 20_003,
  cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
  output_tokens: 456,
};

/** The embedded defaults plus the cached route, priced with Anthropic's cache multipliers on a $3 input price, and the pooled route. */
function writeConfig(directory: string, upstreamURL: string): string {
  const defaults = createDefaultConfig(EMBEDDED_SIMULATOR);
  const path = join(directory, 'gateway.json');
  const cached = {
    model: CACHED_MODEL,
    interfaces: ['responses', 'messages', 'chat'],
    targets: [{ upstream: 'cached-messages', model: 'claude-upstream' }],
    pricing: { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75, cacheWrite1hPerMillion: 6 },
  };
  writeFileSync(
    path,
    JSON.stringify({
      ...defaults,
      upstreams: { ...defaults.upstreams, 'cached-messages': { protocol: 'anthropic-messages', baseURL: upstreamURL }, 'pooled-messages': POOLED_UPSTREAM },
      routes: [...defaults.routes, cached, POOLED_ROUTE],
    }),
  );
  return path;
}

/**
 * The panel in headless Chromium against the example server on 127.0.0.1, as a person uses it
 * with an account's console token: copy a model ID, call it, watch the requests arrive in Usage,
 * filter and export them, manage a key, read the balance; then the admin console tops it up. A
 * screenshot of each page lands in .test-results/screenshots. The steps run in order, in one
 * browser session.
 */
describe('the panel in a real browser', () => {
  let server: TestGateway;
  let cachedUpstream: LoopbackServer;
  let directory: string;
  let browser: Browser;
  let teamA: Account;
  let teamB: Account;
  let teamBRequestId: string;
  let browserKeySecret: string;
  const requestIds: { streamed?: string; refused?: string } = {};

  const adminAPI = () => request(server.url);
  const asAdmin = () => ({ authorization: `Bearer ${server.adminToken}` });
  const openai = (apiKey: string) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 });
  const page = () => browser.page;

  /** An account with a balance, a console token and an API key, made through the admin API. */
  async function createAccount(name: string): Promise<Account> {
    const account = await adminAPI()
      .post('/admin/accounts')
      .set(asAdmin())
      .send({ name, balance: 10 })
      .expect(201);
    const token = await adminAPI()
      .post('/admin/console-tokens')
      .set(asAdmin())
      .send({ accountId: account.body.id, name: `${name} panel` })
      .expect(201);
    const key = await adminAPI()
      .post('/admin/keys')
      .set(asAdmin())
      .send({ accountId: account.body.id, name: `${name} key` })
      .expect(201);
    return { id: account.body.id, consoleToken: token.body.secret, apiKey: key.body.secret };
  }

  beforeAll(async () => {
    cachedUpstream = await startUsageReplayUpstream({
      messages: { usage: CACHED_USAGE, deltaUsage: { output_tokens: 456 } },
      responses: {},
      chat: {},
    });
    directory = mkdtempSync(join(tmpdir(), 'signalbox-panel-'));
    server = await startTestGateway({ configPath: writeConfig(directory, cachedUpstream.url), environment: POOL_KEYS });
    browser = await launchChromium();
    [teamA, teamB] = await Promise.all([createAccount('team-a'), createAccount('team-b')]);
    const { request_id } = await openai(teamB.apiKey)
      .responses.create({ model: server.models[0]!, input: 'Hello from team B' })
      .withResponse();
    teamBRequestId = request_id!;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close(1_000);
    await cachedUpstream?.close();
    rmSync(directory, { recursive: true, force: true });
  });
  afterEach(() => {
    // A CSP violation or a script error shows up here: the page must run without either.
    expect(browser.consoleErrors.splice(0)).toEqual([]);
  });

  it('logs in with an account console token into an HttpOnly, SameSite=Strict session the page cannot read', async () => {
    await page().goto(`${server.url}/panel`);
    await page().getByLabel('Console token').fill(teamA.consoleToken);
    await browser.screenshot('login');
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().getByRole('heading', { name: 'Models' }).waitFor();
    expect(await page().locator('.who').textContent()).toBe('Account: team-a');
    const [cookie] = await browser.context.cookies(`${server.url}/panel`);
    expect(cookie).toMatchObject({
      name: 'signalbox_panel',
      path: '/panel',
      httpOnly: true,
      sameSite: 'Strict',
      secure: false,
    });
    expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000);
    expect(cookie!.value).not.toContain(teamA.consoleToken);
    // Evaluated in the page (a string: the tests are type-checked without the DOM library).
    const visible = (await page().evaluate(
      '({ cookie: document.cookie, stored: localStorage.length + sessionStorage.length, url: location.href, html: document.documentElement.outerHTML })',
    )) as Record<string, string>;
    expect(visible).toMatchObject({ cookie: '', stored: 0, url: `${server.url}/panel/models` });
    expect(visible.html).not.toContain(teamA.consoleToken);
  });

  it("lists every route with its exact model ID and snippets with this server's base URL; the ID read from the page works with the openai SDK", async () => {
    const ids = await page().locator('code.model-id').allTextContents();
    expect(ids).toEqual(server.models);
    const snippets = (await page().locator('.code-block pre').allTextContents()).join('\n');
    expect(snippets).toContain(`new OpenAI({ baseURL: '${server.url}/v1'`);
    expect(snippets).toContain(`baseURL: '${server.url}',`);
    expect(snippets).toContain(`export ANTHROPIC_BASE_URL=${server.url}\n`);
    expect(snippets).toContain(`base_url = "${server.url}/v1"`);
    await browser.screenshot('models');
    const response = await openai(teamA.apiKey).responses.create({
      model: ids[0]!,
      input: 'Hello from the panel test',
    });
    expect(response.status).toBe('completed');
  });

  it('refuses a change that the page script did not sign with the session CSRF token', async () => {
    const answer = await page().evaluate(
      `fetch('/panel/api/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"forged"}' }).then(async r => [r.status, (await r.json()).error.code])`,
    );
    expect(answer).toEqual([403, 'PANEL_REQUEST_FORBIDDEN']);
  });

  it('shows a streamed and a refused request in Usage with their status and cost, without a reload', async () => {
    await page().getByRole('link', { name: 'Usage' }).click();
    await page().getByRole('heading', { name: 'Usage' }).waitFor();
    const model = server.models[1]!;
    const { data: stream, response } = await openai(teamA.apiKey)
      .responses.create({ model, input: 'Stream a hello', stream: true })
      .withResponse();
    for await (const _event of stream);
    requestIds.streamed = response.headers.get('x-request-id')!;
    const refused = await openai(teamA.apiKey)
      .responses.create({ model: 'no-such-model', input: 'Hello?' })
      .catch((error: unknown) => error as InstanceType<typeof OpenAI.APIError>);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
    requestIds.refused = (refused as InstanceType<typeof OpenAI.APIError>).requestID!;

    const streamedRow = page().locator(`tr[data-request-id="${requestIds.streamed}"]`);
    const refusedRow = page().locator(`tr[data-request-id="${requestIds.refused}"]`);
    await streamedRow.waitFor({ timeout: 15_000 });
    await refusedRow.waitFor({ timeout: 15_000 });
    const api = await adminAPI()
      .get('/admin/usage')
      .set({ authorization: `Bearer ${teamA.consoleToken}` })
      .expect(200);
    const apiRow = (id: string) => api.body.data.find((row: { requestId: string }) => row.requestId === id);
    expect(apiRow(requestIds.streamed)).toMatchObject({
      status: 200,
      outcome: 'completed',
      stream: true,
      model,
    });
    expect(apiRow(requestIds.streamed).cost).toBeGreaterThan(0);
    expect(apiRow(requestIds.refused)).toMatchObject({ status: 404, cost: 0 });
    const cells = async (row: typeof streamedRow) =>
      (await row.locator('td').allTextContents()).map(text => text.trim());
    const streamed = await cells(streamedRow);
    expect(streamed.slice(1, 5)).toEqual([
      model,
      '200 completed',
      `$${apiRow(requestIds.streamed).cost}`,
      'openai-responses (stream)',
    ]);
    const refusedCells = await cells(refusedRow);
    expect(refusedCells[2]).toMatch(/^404 /);
    expect(refusedCells[3]).toBe('$0.00');
    // The key by its name, not its id or prefix.
    expect([streamed[7], refusedCells[7]]).toEqual(['team-a key', 'team-a key']);
    await page().locator('.chart canvas').first().waitFor();
    await browser.screenshot('usage');
  });

  it('shows per model the share of input read from the prompt cache and what the cache saved, as the summary API counts them', async () => {
    const answer = await openai(teamA.apiKey).responses.create({ model: CACHED_MODEL, input: 'Summarise the cached handbook' });
    expect(answer.usage).toMatchObject({ input_tokens: 24_237, input_tokens_details: { cached_tokens: 20_003 } });
    const cachedRow = page().locator(`table.cache-by-model tr[data-model="${CACHED_MODEL}"]`);
    await cachedRow.waitFor({ timeout: 15_000 });
    const summary = await adminAPI()
      .get('/admin/usage/summary?groupBy=model&bucket=minute')
      .set({ authorization: `Bearer ${teamA.consoleToken}` })
      .expect(200);
    const rows = (summary.body.data as Array<Record<string, number | string>>).filter(row => row.group === CACHED_MODEL);
    const total = (name: string) => rows.reduce((sum, row) => sum + Number(row[name]), 0);
    // 1,234 × 3 + 20,003 × 0.3 + 1,000 × 3.75 + 2,000 × 6 + 456 × 15 = 32,293 charged; 24,237 × 3 + 456 × 15 − 32,293 saved.
    expect([total('inputTokens'), total('cacheReadTokens'), total('cacheWriteTokens'), total('costMicros'), total('cacheSavingsMicros')]).toEqual([
      24_237, 20_003, 3000, 32_293, 47_258,
    ]);
    const cells = async (row: typeof cachedRow) => (await row.locator('td').allTextContents()).map(text => text.trim());
    expect(await cells(cachedRow)).toEqual([CACHED_MODEL, '24,237', '82.5%', '3,000', '$0.047258']);
    // The simulator reports no cache activity: none of its input was read from a cache, nothing saved.
    const simulated = await cells(page().locator(`table.cache-by-model tr[data-model="${server.models[1]}"]`));
    expect(simulated.slice(2)).toEqual(['0.0%', '0', '$0.00']);
    await page().getByRole('heading', { name: 'Prompt cache by model' }).scrollIntoViewIfNeeded();
    await browser.screenshot('usage-cache');
  });

  it("filters by model with the filter kept in the URL, and exports the same rows as the API's CSV", async () => {
    const model = server.models[1]!;
    await page().getByRole('textbox', { name: 'Model', exact: true }).fill(model);
    await page().getByRole('button', { name: 'Apply' }).click();
    await page().waitForURL(`${server.url}/panel/usage?model=${model}&bucket=minute`);
    await page().locator(`tr[data-request-id="${requestIds.refused}"]`).waitFor({ state: 'detached' });
    const models = await page().locator('table.usage tbody tr td:nth-child(2)').allTextContents();
    expect(models.length).toBeGreaterThan(0);
    expect(new Set(models)).toEqual(new Set([model]));
    await browser.screenshot('usage-filtered');

    const [download] = await Promise.all([
      page().waitForEvent('download'),
      page().getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    // Read through the connection: the browser runs in a program of its own (download.path() is not available).
    const exported = await text(await download.createReadStream());
    const api = await adminAPI()
      .get(`/admin/usage?format=csv&model=${model}`)
      .set({ authorization: `Bearer ${teamA.consoleToken}` })
      .expect(200);
    expect(exported).toBe(api.text);
    expect(exported).toContain(requestIds.streamed);
    expect(exported).not.toContain(requestIds.refused);
  });

  it('pages through the rows, older and newer, with the page kept in the URL', async () => {
    await page().goto(`${server.url}/panel/usage?limit=2`);
    const ids = () =>
      page()
        .locator('table.usage tbody tr')
        .evaluateAll(rows => rows.map(row => row.getAttribute('data-request-id')));
    await page().locator('table.usage tbody tr').nth(1).waitFor();
    const newest = await ids();
    expect(newest).toHaveLength(2);
    await page().getByRole('button', { name: 'Older' }).click();
    await page().waitForURL(/[?&]cursor=/);
    await page()
      .locator(`table.usage tbody tr[data-request-id="${newest[0]}"]`)
      .waitFor({ state: 'detached' });
    const older = await ids();
    expect(older.length).toBeGreaterThan(0);
    expect(older.filter(id => newest.includes(id))).toEqual([]);
    await page().getByRole('button', { name: 'Newer' }).click();
    await page().waitForURL(`${server.url}/panel/usage?limit=2`);
    await page().locator(`table.usage tbody tr[data-request-id="${newest[0]}"]`).waitFor();
    expect(await ids()).toEqual(newest);
  });

  it("filters by a key picked by name from the account's own keys, each row naming its key", async () => {
    const second = await adminAPI()
      .post('/admin/keys')
      .set(asAdmin())
      .send({ accountId: teamA.id, name: 'team-a second key' })
      .expect(201);
    const { request_id: secondRequestId } = await openai(second.body.secret)
      .responses.create({ model: server.models[0]!, input: 'Hello with the second key' })
      .withResponse();
    const listed = await adminAPI().get(`/admin/keys?accountId=${teamA.id}`).set(asAdmin()).expect(200);
    const labelOf = (name: string) =>
      `${name} (${listed.body.data.find((key: { name: string }) => key.name === name).prefix}…)`;
    await page().goto(`${server.url}/panel/usage`);
    await page().locator(`tr[data-request-id="${secondRequestId}"]`).waitFor();
    const picker = page().getByRole('combobox', { name: 'Key', exact: true });
    await picker.locator('option', { hasText: 'team-a second key' }).waitFor({ state: 'attached' });
    const labels = (await picker.locator('option').allTextContents()).map(text => text.trim());
    // Names (with the visible prefix), never ids; only this account's keys.
    expect(labels).toEqual(['any', labelOf('team-a key'), labelOf('team-a second key')]);
    expect(labels.join(' ')).not.toMatch(/key_/);
    await picker.selectOption({ label: labelOf('team-a second key') });
    await page().getByRole('button', { name: 'Apply' }).click();
    await page().waitForURL(`${server.url}/panel/usage?keyId=${second.body.key.id}&bucket=minute`);
    await page().locator(`tr[data-request-id="${requestIds.streamed}"]`).waitFor({ state: 'detached' });
    const rows = page().locator('table.usage tbody tr');
    expect(await rows.evaluateAll(found => found.map(row => row.getAttribute('data-request-id')))).toEqual([
      secondRequestId,
    ]);
    expect(await rows.locator('td:nth-child(8)').allTextContents()).toEqual(['team-a second key']);
    expect(await picker.inputValue()).toBe(second.body.key.id);
    await browser.screenshot('usage-by-key');
  });

  it('shows an account only its own rows, whatever account the page asks for', async () => {
    await page().goto(`${server.url}/panel/usage`);
    await page().locator(`tr[data-request-id="${requestIds.streamed}"]`).waitFor();
    expect(await page().locator(`tr[data-request-id="${teamBRequestId}"]`).count()).toBe(0);
    const asked = (await page().evaluate(
      `fetch('/panel/api/usage?accountId=${teamB.id}').then(r => r.json())`,
    )) as { data: { accountId: string }[] };
    expect(asked.data.every(row => row.accountId === teamA.id)).toBe(true);
    const csv = (await page().evaluate(
      `fetch('/panel/api/usage.csv?accountId=${teamB.id}').then(r => r.text())`,
    )) as string;
    expect(csv).not.toContain(teamBRequestId);
  });

  it('creates a key in the page, shows its secret once, and a key disabled in the page is refused with 401', async () => {
    await page().getByRole('link', { name: 'Keys' }).click();
    await page().getByRole('heading', { name: 'Create a key' }).waitFor();
    // An account's session is offered no group, and reads its keys' ceiling (the example server's limits.default).
    expect(await page().getByLabel('Group (optional)').count()).toBe(0);
    expect(await page().locator('.ceiling').textContent()).toBe(
      "This account's keys may have at most: 64 requests in flight, 256 waiting (30 s at most). Only the operator may give a key a group or more.",
    );
    expect(await page().getByLabel('Requests in flight (optional)').getAttribute('max')).toBe('64');
    await page().getByLabel('Name').fill('browser-key');
    await page().getByLabel('Allowed models (optional, comma-separated)').fill(server.models[0]!);
    await page().getByRole('button', { name: 'Create key' }).click();
    const secret = (await page().locator('code.key-secret').textContent())!;
    expect(secret).toMatch(/^sbx-[A-Za-z0-9]{40}$/);
    browserKeySecret = secret;
    await page().locator('tr', { hasText: 'browser-key' }).waitFor();
    await browser.screenshot('keys-created');

    expect(
      (await openai(secret).responses.create({ model: server.models[0]!, input: 'Hello with a panel key' }))
        .status,
    ).toBe('completed');

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

  it('enables the key again and then expires it from the page: the expired key is refused with 403', async () => {
    const row = page().locator('tr', { hasText: 'browser-key' });
    await page().getByRole('button', { name: 'Enable browser-key' }).click();
    await row.getByText('active').waitFor();
    await page().getByRole('button', { name: 'Expire browser-key now' }).click();
    await row.getByText('expired').waitFor();
    const keys = await adminAPI().get(`/admin/keys?accountId=${teamA.id}`).set(asAdmin()).expect(200);
    const key = keys.body.data.find((candidate: { name: string }) => candidate.name === 'browser-key');
    expect(key.status).toBe('active');
    expect(Date.parse(key.expiresAt)).toBeLessThanOrEqual(Date.now());
    const refused = await request(server.url)
      .post('/v1/responses')
      .set({ authorization: `Bearer ${browserKeySecret}` })
      .send({ model: server.models[0], input: 'Hello' });
    expect([refused.status, refused.body.code]).toEqual([403, 'API_KEY_EXPIRED']);
  });

  it('offers no Enable for a key the operator disabled', async () => {
    const { key } = (await adminAPI().post('/admin/keys').set(asAdmin()).send({ accountId: teamA.id, name: 'operator-stopped' }).expect(201)).body;
    await adminAPI().patch(`/admin/keys/${key.id}`).set(asAdmin()).send({ status: 'disabled' }).expect(200);
    await page().reload();
    const row = page().locator('tr', { hasText: 'operator-stopped' });
    await row.getByText('Disabled by the operator').waitFor();
    expect(await page().getByRole('button', { name: 'Enable operator-stopped' }).count()).toBe(0);
  });

  it('offers an account session no Upstreams page, and the admin API refuses it the upstreams', async () => {
    expect(await page().getByRole('link', { name: 'Upstreams' }).count()).toBe(0);
    const refused = await adminAPI().get('/admin/upstreams').set({ authorization: `Bearer ${teamA.consoleToken}` });
    expect([refused.status, refused.body.code]).toEqual([403, 'ADMIN_TOKEN_REQUIRED']);
  });

  it('shows the balance, the amount held and the history, with no top-up for an account login', async () => {
    await page().getByRole('link', { name: 'Balance' }).click();
    await page().getByRole('heading', { name: 'History' }).waitFor();
    const account = await adminAPI().get(`/admin/accounts/${teamA.id}`).set(asAdmin()).expect(200);
    expect(await page().locator('.balance-amount').textContent()).toBe(
      `$${(account.body.balanceMicros / 1_000_000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`,
    );
    await page().locator('table.events tbody tr', { hasText: 'opening' }).waitFor();
    expect(await page().getByRole('button', { name: 'Top up' }).count()).toBe(0);
    await browser.screenshot('balance');
  });

  it('lets the admin console top up an account on the Balance page after the account logs out', async () => {
    await page().getByRole('button', { name: 'Log out' }).click();
    await page().getByLabel('Console token').waitFor();
    expect(await browser.context.cookies(`${server.url}/panel`)).toEqual([]);
    await page().getByLabel('Console token').fill(server.adminToken);
    await page().getByRole('button', { name: 'Log in' }).click();
    await page().getByRole('heading', { name: 'Balance' }).waitFor();
    await page().getByLabel('Account').selectOption(teamA.id);
    await page().getByLabel('Top up (currency units)').fill('5');
    await page().getByRole('button', { name: 'Top up' }).click();
    await page().locator('table.events tbody tr', { hasText: 'top-up' }).waitFor();
    const events = await adminAPI()
      .get(`/admin/accounts/${teamA.id}/balance-events`)
      .set(asAdmin())
      .expect(200);
    expect(events.body.data[0]).toMatchObject({ kind: 'top-up', delta: 5 });
    await browser.screenshot('balance-admin');
  });

  it("lets the admin console pick any account's key by name, grouped by account, and filter by it", async () => {
    await page().getByRole('link', { name: 'Usage' }).click();
    const picker = page().getByRole('combobox', { name: 'Key', exact: true });
    await picker.locator('optgroup[label="team-b"] option').first().waitFor({ state: 'attached' });
    const group = (account: string) =>
      picker.locator(`optgroup[label="${account}"] option`).evaluateAll(options => options.map(option => option.textContent));
    expect(await group('team-a')).toEqual([
      expect.stringMatching(/^browser-key \(sbx-/),
      expect.stringMatching(/^operator-stopped \(sbx-/),
      expect.stringMatching(/^team-a key \(sbx-/),
      expect.stringMatching(/^team-a second key \(sbx-/),
    ]);
    expect(await group('team-b')).toEqual([expect.stringMatching(/^team-b key \(sbx-[A-Za-z0-9]{8}…\)$/)]);
    await picker.selectOption({ label: (await group('team-b'))[0]! });
    await page().getByRole('button', { name: 'Apply' }).click();
    await page().waitForURL(/[?&]keyId=key_/);
    // The unfiltered table holds team-b's row too: wait for the filtered page to replace it.
    await page().locator('table.usage tbody tr').nth(1).waitFor({ state: 'detached' });
    const teamBRow = page().locator(`tr[data-request-id="${teamBRequestId}"]`);
    expect(await teamBRow.count()).toBe(1);
    expect((await teamBRow.locator('td:nth-child(8)').textContent())?.trim()).toBe('team-b key');
  });

  it("shows the admin console each upstream's credentials with their state, and enables a revoked key again", async () => {
    server.simulator.configureCredential(POOL_KEYS.PANEL_POOL_A, { requestsPerMinute: 0, retryAfterSeconds: 60 });
    server.simulator.configureCredential(POOL_KEYS.PANEL_POOL_B, { revoked: true });
    for (let turn = 0; turn < 4; turn += 1) {
      const answer = await openai(teamA.apiKey).responses.create({ model: 'sim-pooled', input: `Hello from the pool, turn ${turn}` });
      expect(answer.status).toBe('completed');
    }
    await page().getByRole('link', { name: 'Upstreams' }).click();
    await page().getByRole('heading', { name: 'Upstreams', level: 1 }).waitFor();
    const pool = page().locator('section[data-upstream="pooled-messages"]');
    const row = (credential: string) => pool.locator(`tr[data-credential="${credential}"]`);
    await row('team-b').getByText('disabled: the upstream refused its key (401)').waitFor();
    expect(await row('team-a').locator('.status').textContent()).toMatch(/^cooling down until /);
    expect(await row('team-a').locator('code').textContent()).toBe('UPSTREAM_RATE_LIMITED');
    expect(await row('team-c').locator('.status').textContent()).toBe('healthy');
    expect(await row('team-c').getByRole('button').count()).toBe(0);
    expect(await page().locator('section[data-upstream="simulator-messages"] tr[data-credential="default"] .status').textContent()).toBe('healthy');
    const html = (await page().evaluate('document.documentElement.outerHTML')) as string;
    for (const key of Object.values(POOL_KEYS)) expect(html).not.toContain(key);
    await browser.screenshot('upstreams');

    server.simulator.configureCredential(POOL_KEYS.PANEL_POOL_B, undefined);
    await page().getByRole('button', { name: 'Enable pooled-messages team-b' }).click();
    await row('team-b').getByText('healthy', { exact: true }).waitFor();
    const listed = await adminAPI().get('/admin/upstreams').set(asAdmin()).expect(200);
    const credentials = listed.body.data.find((upstream: { name: string }) => upstream.name === 'pooled-messages').credentials;
    expect(credentials.map((credential: { name: string; state: string }) => `${credential.name} ${credential.state}`)).toEqual([
      'team-a cooling-down',
      'team-b healthy',
      'team-c healthy',
    ]);
  });
});
