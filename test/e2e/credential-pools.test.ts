import { randomBytes } from 'node:crypto';
import { EMBEDDED_SIMULATOR } from '../../examples/server/src/default-config';
import { startWithConfig } from '../errors/refusal-helpers';
import type { TestGateway } from '../helpers/start-test-gateway';

/** The upstream keys of the pools, as their environment variables hold them: secrets the logs must never show. */
const KEYS = {
  POOL_KEY_A: `sk-pool-a-${randomBytes(12).toString('hex')}`,
  POOL_KEY_B: `sk-pool-b-${randomBytes(12).toString('hex')}`,
  POOL_KEY_C: `sk-pool-c-${randomBytes(12).toString('hex')}`,
};
const CREDENTIALS = [
  { name: 'team-a', apiKeyEnv: 'POOL_KEY_A' },
  { name: 'team-b', apiKeyEnv: 'POOL_KEY_B' },
  { name: 'team-c', apiKeyEnv: 'POOL_KEY_C' },
];

type Answer = { status: number; requestId: string; text: string };

/**
 * The example server in front of the simulator with two pools of three keys, one behind a
 * Messages upstream (Messages clients: the pass-through path) and one behind a Chat upstream
 * (Responses clients: translated). Midway, the simulator starts rate-limiting one key and revokes
 * another: no client request may fail while a key of the pool is healthy, and neither key gets
 * traffic again until its reset or an operator's action.
 */
describe('a pool of upstream keys behind the gateway, one rate-limited and one revoked mid-run', () => {
  let server: TestGateway;
  const headers = () => ({ 'content-type': 'application/json', authorization: `Bearer ${server.demoKey}`, 'x-api-key': server.demoKey, 'anthropic-version': '2023-06-01' });
  const asAdmin = () => ({ authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' });

  beforeAll(async () => {
    server = await startWithConfig(
      config => ({
        ...config,
        upstreams: {
          ...config.upstreams,
          'pooled-messages': { protocol: 'anthropic-messages', baseURL: EMBEDDED_SIMULATOR, credentials: CREDENTIALS },
          'pooled-chat': { protocol: 'openai-chat', baseURL: `${EMBEDDED_SIMULATOR}/v1`, credentials: CREDENTIALS.map(credential => ({ ...credential, weight: 2 })) },
        },
        routes: [
          ...config.routes,
          { model: 'pooled-via-messages', interfaces: ['messages'], targets: [{ upstream: 'pooled-messages', model: 'sim-1' }] },
          { model: 'pooled-via-chat', interfaces: ['responses'], targets: [{ upstream: 'pooled-chat', model: 'sim-1' }] },
        ],
      }),
      { environment: KEYS },
    );
  });
  afterAll(() => server?.close(1_000));

  async function send(index: number): Promise<Answer> {
    const stream = index % 2 === 1;
    const messages = index % 3 !== 0;
    const body = messages
      ? { model: 'pooled-via-messages', max_tokens: 64, stream, messages: [{ role: 'user', content: `hello number ${index}` }] }
      : { model: 'pooled-via-chat', stream, input: `hello number ${index}` };
    const response = await fetch(`${server.url}${messages ? '/v1/messages' : '/v1/responses'}`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
    return { status: response.status, requestId: response.headers.get('x-request-id') ?? '', text: await response.text() };
  }

  /** `count` requests, `concurrency` at a time, starting at `from`. */
  async function sendMany(from: number, count: number, concurrency = 4): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let start = from; start < from + count; start += concurrency) {
      const batch = Array.from({ length: Math.min(concurrency, from + count - start) }, (_, offset) => send(start + offset));
      answers.push(...(await Promise.all(batch)));
    }
    return answers;
  }

  const recordOf = (requestId: string) => server.recentUsage().find(record => record.requestId === requestId)!;
  const stats = (key: string) => server.simulator.credentialStats(key);

  it('spreads requests over the keys, then serves every request while one key is rate-limited and another revoked', async () => {
    const before = await sendMany(0, 12);
    expect(before.map(answer => answer.status)).toEqual(Array(12).fill(200));
    for (const key of Object.values(KEYS)) expect(stats(key).requests).toBeGreaterThan(0);

    server.simulator.configureCredential(KEYS.POOL_KEY_A, { requestsPerMinute: 0, retryAfterSeconds: 30 });
    server.simulator.configureCredential(KEYS.POOL_KEY_B, { revoked: true });
    const [a, b] = [stats(KEYS.POOL_KEY_A).requests, stats(KEYS.POOL_KEY_B).requests];
    const during = await sendMany(12, 24);
    expect(during.filter(answer => answer.status !== 200).map(answer => `${answer.status} ${answer.text.slice(0, 200)}`)).toEqual([]);

    // Each pool tried a key at most once after it turned (concurrent requests may have been on their way to it already).
    expect(stats(KEYS.POOL_KEY_A).rateLimited).toBeGreaterThanOrEqual(1);
    expect(stats(KEYS.POOL_KEY_A).requests - a).toBe(stats(KEYS.POOL_KEY_A).rateLimited);
    expect(stats(KEYS.POOL_KEY_A).rateLimited).toBeLessThanOrEqual(2 * 4);
    expect(stats(KEYS.POOL_KEY_B).requests - b).toBe(stats(KEYS.POOL_KEY_B).revoked);
    expect(stats(KEYS.POOL_KEY_B).revoked).toBeLessThanOrEqual(2 * 4);
    // Past the first batch after the turn, every request was served by the one healthy key.
    const late = during.slice(8).map(answer => recordOf(answer.requestId));
    expect(new Set(late.map(record => record.upstreamCredential))).toEqual(new Set(['team-c']));
    expect(late.every(record => record.attempts === 1)).toBe(true);
    const moved = during.map(answer => recordOf(answer.requestId)).filter(record => record.attempts > 1);
    expect(moved.length).toBeGreaterThan(0);
    for (const record of moved) expect(record).toMatchObject({ status: 200, upstreamCredential: 'team-c' });
  });

  it('shows each credential’s state in the admin API and the metrics, names the revoked one in one error line, and never a key', async () => {
    const listed = (await (await fetch(`${server.url}/admin/upstreams`, { headers: asAdmin() })).json()) as {
      data: { name: string; credentials: { name: string; state: string; until: string | null; reason: string | null; lastErrorCode: string | null }[] }[];
    };
    const pool = listed.data.find(upstream => upstream.name === 'pooled-messages')!;
    const [teamA, teamB, teamC] = pool.credentials;
    expect(teamA).toMatchObject({ name: 'team-a', state: 'cooling-down', lastErrorCode: 'UPSTREAM_RATE_LIMITED' });
    expect(Date.parse(teamA!.until!) - server.clock.now()).toBeGreaterThan(25_000);
    expect(teamB).toMatchObject({ name: 'team-b', state: 'disabled', reason: 'upstream-401', until: null, lastErrorCode: 'UPSTREAM_AUTH_FAILED' });
    expect(teamC).toMatchObject({ name: 'team-c', state: 'healthy' });
    const text = JSON.stringify(listed);
    for (const key of Object.values(KEYS)) expect(text).not.toContain(key);

    const metrics = await (await fetch(`${server.url}/metrics`, { headers: asAdmin() })).text();
    expect(metrics).toContain('signalbox_upstream_credential_state{upstream="pooled-messages",credential="team-b",state="disabled"} 1');
    expect(metrics).toContain('signalbox_upstream_credential_state{upstream="pooled-messages",credential="team-a",state="cooling-down"} 1');
    expect(metrics).toMatch(/signalbox_upstream_health_events_total\{upstream="pooled-chat",credential="team-b",event="disabled"\} 1\n/);

    const takenOut = server.audit.lines().map(line => JSON.parse(line) as Record<string, unknown>).filter(line => line.level === 50 && line.credential === 'team-b');
    expect(takenOut.map(line => line.upstream).sort()).toEqual(['pooled-chat', 'pooled-messages']);
    expect(server.audit.findLeaks()).toEqual([]);
  });

  it('sends the rate-limited key traffic again once its reset has passed, and the revoked one once an operator enables it', async () => {
    server.simulator.configureCredential(KEYS.POOL_KEY_A, undefined);
    server.simulator.configureCredential(KEYS.POOL_KEY_B, undefined);
    const [a, b] = [stats(KEYS.POOL_KEY_A).requests, stats(KEYS.POOL_KEY_B).requests];
    server.clock.advance(30_000);
    expect((await sendMany(100, 12)).every(answer => answer.status === 200)).toBe(true);
    expect(stats(KEYS.POOL_KEY_A).requests).toBeGreaterThan(a);
    expect(stats(KEYS.POOL_KEY_B).requests).toBe(b);

    for (const upstream of ['pooled-messages', 'pooled-chat']) {
      const enabled = await fetch(`${server.url}/admin/upstreams/${upstream}/enable`, { method: 'POST', headers: asAdmin(), body: JSON.stringify({ credential: 'team-b' }) });
      expect([enabled.status, ((await enabled.json()) as { state: string }).state]).toEqual([200, 'healthy']);
    }
    expect((await sendMany(200, 12)).every(answer => answer.status === 200)).toBe(true);
    expect(stats(KEYS.POOL_KEY_B).requests).toBeGreaterThan(b);
  });
});
