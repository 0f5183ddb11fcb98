import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_IDENTITY, type UsageEntry } from '@signalbox/accounts';
import { authHeaders } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { findFreePort } from '../helpers/throwaway-process';

type Interface = keyof typeof authHeaders;
type Sample = { name: string; labels: Record<string, string>; value: number };

const PATHS: Record<Interface, string> = { responses: '/v1/responses', chat: '/v1/chat/completions', messages: '/v1/messages' };
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/** A request body on `face` for `model`, streamed or not. */
function bodyFor(face: Interface, model: string, stream: boolean): object {
  if (face === 'responses') return { model, input: 'Say hello', stream, max_output_tokens: 64 };
  if (face === 'chat') return { model, messages: [{ role: 'user', content: 'Say hello' }], stream, max_completion_tokens: 64 };
  return { model, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }], stream };
}

/** Sends one request, reads its answer to the end, and returns the status. */
async function send(url: string, key: string, face: Interface, model: string, stream = false): Promise<number> {
  const response = await fetch(`${url}${PATHS[face]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders[face](key) },
    body: JSON.stringify(bodyFor(face, model, stream)),
    signal: AbortSignal.timeout(15_000),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The samples of a Prometheus text exposition (https://prometheus.io/docs/instrumenting/exposition_formats/). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter(line => line !== '' && !line.startsWith('#'))
    .map(line => {
      const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(pair => [pair[1]!, pair[2]!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of `name` whose labels include `labels`. */
function total(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(sample => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** Two routes on the embedded simulator: `sim` (one Messages upstream) and `failover` (first an upstream at `deadPort`, where nothing listens). */
function writeConfig(folder: string, deadPort: number): string {
  const route = (model: string, targets: string[]) => ({
    model,
    interfaces: ['responses', 'messages', 'chat'],
    targets: targets.map(upstream => ({ upstream, model: 'sim-1' })),
    pricing: { inputPerMillion: 3, outputPerMillion: 15 },
  });
  const path = join(folder, 'gateway.json');
  writeFileSync(
    path,
    JSON.stringify({
      upstreams: {
        'sim-messages': { protocol: 'anthropic-messages', baseURL: 'embedded:simulator' },
        dead: { protocol: 'anthropic-messages', baseURL: `http://127.0.0.1:${deadPort}` },
      },
      routes: [route('sim', ['sim-messages']), route('failover', ['dead', 'sim-messages'])],
    }),
  );
  return path;
}

async function scrape(url: string, token?: string): Promise<Response> {
  return fetch(url, { ...(token && { headers: { authorization: `Bearer ${token}` } }), signal: AbortSignal.timeout(10_000) });
}

async function waitForRecords(server: TestGateway, count: number): Promise<void> {
  for (let turn = 0; turn < 200 && server.recentUsage().length < count; turn++) await new Promise(resolve => setTimeout(resolve, 5));
  expect(server.recentUsage()).toHaveLength(count);
}

async function allRows(server: TestGateway): Promise<UsageEntry[]> {
  const rows: UsageEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await server.store.listUsage({}, { limit: 100, ...(cursor !== undefined && { cursor }) });
    rows.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return rows;
}

describe('Prometheus metrics on the example server', () => {
  let folder: string;
  let server: TestGateway;
  let key: string;
  let limitedKey: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'signalbox-metrics-'));
    server = await startTestGateway({ configPath: writeConfig(folder, await findFreePort()) });
    const account = await server.store.createAccount({ name: 'metrics', balanceMicros: 10_000_000 });
    key = (await server.store.createKey({ accountId: account.id, name: 'open' })).secret;
    limitedKey = (await server.store.createKey({ accountId: account.id, name: 'one a minute', limits: { requests: 1 } })).secret;
    server.audit.remember([key, limitedKey]);
  });

  afterAll(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('counts a mixed run exactly as the ledger has it: statuses, outcomes, tokens, cost, retries and failover, refusals, unknown models', async () => {
    const statuses = [
      await send(server.url, key, 'responses', 'sim'), // translated, JSON
      await send(server.url, key, 'responses', 'sim', true), // translated, stream
      await send(server.url, key, 'messages', 'sim'), // same protocol, JSON
      await send(server.url, key, 'messages', 'sim', true), // same protocol, stream
      await send(server.url, key, 'chat', 'failover'), // the unreachable upstream is retried, then the next one serves
      await send(server.url, 'sbx-not-a-real-key', 'responses', 'sim'), // a bad key
      await send(server.url, limitedKey, 'responses', 'sim'),
      await send(server.url, limitedKey, 'responses', 'sim'), // over its one request a minute
      await send(server.url, key, 'responses', 'made-up-model-1'),
      await send(server.url, key, 'chat', 'made-up-model-2'),
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 200, 401, 200, 429, 404, 404]);
    await waitForRecords(server, statuses.length);

    const response = await scrape(server.metricsURL!, server.adminToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(PROMETHEUS_TEXT);
    const samples = parseExposition(await response.text());
    const rows = await allRows(server);
    expect(rows).toHaveLength(statuses.length);

    // Requests by status and outcome, as the ledger has them.
    const ledgerCounts: Record<string, number> = {};
    for (const row of rows) ledgerCounts[`${row.status} ${row.outcome}`] = (ledgerCounts[`${row.status} ${row.outcome}`] ?? 0) + 1;
    const metricCounts: Record<string, number> = {};
    for (const sample of samples.filter(sample => sample.name === 'signalbox_requests_total')) {
      const pair = `${sample.labels.status} ${sample.labels.outcome}`;
      metricCounts[pair] = (metricCounts[pair] ?? 0) + sample.value;
    }
    expect(metricCounts).toEqual(ledgerCounts);
    expect(ledgerCounts).toEqual({ '200 completed': 6, '401 error': 1, '404 error': 2, '429 error': 1 });
    expect(total(samples, 'signalbox_requests_total')).toBe(rows.length);

    // Tokens and cost add up to the ledger's.
    const sum = (pick: (row: UsageEntry) => number) => rows.reduce((all, row) => all + pick(row), 0);
    expect(sum(row => row.inputTokens)).toBeGreaterThan(0);
    expect(total(samples, 'signalbox_tokens_total', { kind: 'input' })).toBe(sum(row => row.inputTokens));
    expect(total(samples, 'signalbox_tokens_total', { kind: 'output' })).toBe(sum(row => row.outputTokens));
    expect(sum(row => row.costMicros)).toBeGreaterThan(0);
    expect(total(samples, 'signalbox_cost_micros_total')).toBe(sum(row => row.costMicros));
    expect(total(samples, 'signalbox_cost_micros_total', { route: 'sim' })).toBe(sum(row => (row.model === 'sim' ? row.costMicros : 0)));
    // No route names a group in this config, so tokens and cost carry no group label.
    expect(samples.filter(sample => sample.name === 'signalbox_tokens_total' && 'group' in sample.labels)).toEqual([]);

    // The failover: every attempt after the first was a retry of the dead upstream or the move to the next.
    const failoverRow = rows.find(row => row.model === 'failover')!;
    expect(failoverRow).toMatchObject({ status: 200, upstream: 'sim-messages' });
    expect(failoverRow.attempts).toBeGreaterThanOrEqual(2);
    expect(total(samples, 'signalbox_upstream_failovers_total', { from: 'dead', to: 'sim-messages', reason: 'UPSTREAM_UNREACHABLE' })).toBe(1);
    expect(total(samples, 'signalbox_upstream_retries_total', { upstream: 'dead', reason: 'UPSTREAM_UNREACHABLE' })).toBe(failoverRow.attempts - 2);
    expect(total(samples, 'signalbox_upstream_attempts_total', { upstream: 'dead', result: 'failed', code: 'UPSTREAM_UNREACHABLE' })).toBe(failoverRow.attempts - 1);
    expect(total(samples, 'signalbox_upstream_attempts_total', { upstream: 'sim-messages', result: 'served' })).toBe(6);

    // Refusals: the bad key and the limiter, each under its code; the unknown models under one route label.
    expect(total(samples, 'signalbox_requests_total', { status: '401', code: 'API_KEY_INVALID', route: 'unknown' })).toBe(1);
    expect(total(samples, 'signalbox_limiter_refusals_total', { interface: 'openai-responses', code: 'RATE_LIMITED' })).toBe(1);
    expect(total(samples, 'signalbox_requests_total', { route: 'unknown', code: 'MODEL_NOT_FOUND' })).toBe(2);
    const routeValues = new Set(samples.flatMap(sample => (sample.labels.route === undefined ? [] : [sample.labels.route])));
    expect([...routeValues].sort()).toEqual(['failover', 'sim', 'unknown']);

    // Latency histograms saw every request; streams, holds and the ledger queue are back to empty.
    expect(total(samples, 'signalbox_request_duration_seconds_count')).toBe(rows.length);
    expect(total(samples, 'signalbox_time_to_first_byte_seconds_count', { route: 'sim' })).toBe(5);
    expect(total(samples, 'signalbox_streams_in_flight')).toBe(0);
    expect(total(samples, 'signalbox_ledger_queue_depth')).toBe(0);
    expect(total(samples, 'signalbox_ledger_rows_total', { result: 'committed' })).toBe(rows.length);
    expect(total(samples, 'signalbox_holds_outstanding')).toBe(0);
    expect(total(samples, 'signalbox_holds_amount_micros')).toBe(0);
    expect(samples.some(sample => sample.name === 'signalbox_upstream_connections_open' && sample.labels.upstream === 'sim-messages')).toBe(true);

    // The process metrics, event-loop delay among them.
    expect(samples.some(sample => sample.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some(sample => sample.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('refuses /metrics without the admin token (401), with a wrong one (401) and with an account console token (403)', async () => {
    const account = await server.store.createAccount({ name: 'console' });
    const { secret } = await server.admin.createConsoleToken(ADMIN_IDENTITY, { accountId: account.id, name: 'metrics check' });
    server.audit.remember([secret]);

    const missing = await scrape(server.metricsURL!);
    const wrong = await scrape(server.metricsURL!, 'sbx-admin-wrong');
    const accountToken = await scrape(server.metricsURL!, secret);
    expect([missing.status, wrong.status, accountToken.status]).toEqual([401, 401, 403]);
    expect(((await missing.json()) as { code: string }).code).toBe('ADMIN_TOKEN_MISSING');
    expect(((await accountToken.json()) as { code: string }).code).toBe('ADMIN_TOKEN_REQUIRED');
    await wrong.arrayBuffer();
  });
});

describe('where the example server serves /metrics', () => {
  it('serves them without a token on a listener of its own when given a port, and not on the main port', async () => {
    const server = await startTestGateway({ metrics: { port: 0 } });
    try {
      expect(server.metricsURL).not.toBe(`${server.url}/metrics`);
      const response = await scrape(server.metricsURL!);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(PROMETHEUS_TEXT);
      expect(await response.text()).toContain('# TYPE signalbox_requests_total counter');
      const onMain = await scrape(`${server.url}/metrics`, server.adminToken);
      expect(onMain.status).toBe(404);
      await onMain.arrayBuffer();
    } finally {
      await server.close();
    }
  });

  it('serves none when turned off', async () => {
    const server = await startTestGateway({ metrics: { enabled: false } });
    try {
      expect([server.metrics, server.metricsURL]).toEqual([undefined, undefined]);
      const response = await scrape(`${server.url}/metrics`, server.adminToken);
      expect(response.status).toBe(404);
      await response.arrayBuffer();
    } finally {
      await server.close();
    }
  });
});
