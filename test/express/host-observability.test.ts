import { createPrometheusMetrics } from '@signalbox/metrics-prometheus';
import { createSimulator } from '@signalbox/simulator';
import express from 'express';
import OpenAI from 'openai';
import {
  combineObservers,
  createAdminService,
  createGateway,
  createMetricsRouter,
  digestAdminToken,
  generateAdminToken,
  type EngineObserver,
} from 'signalbox';
import { createKeyedStore } from '../helpers/create-keyed-store';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';

/**
 * A host app observing the gateway with what the `signalbox` package exports: Prometheus metrics
 * and an observer of its own combined into one `observer`, and `GET /metrics` behind the admin token.
 */
describe('a host app with metrics and an observer of its own, from the signalbox package', () => {
  const simulator = createSimulator();
  const seen: string[] = [];
  let host: LoopbackServer;
  let key: string;
  let adminToken: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const { url: simulatorURL } = await simulator.listen(0, '127.0.0.1');
    const keyed = await createKeyedStore();
    key = keyed.key;
    const metrics = createPrometheusMetrics({ routes: ['host-assistant'], upstreams: ['sim'], defaultMetrics: false });
    const ownObserver: EngineObserver = {
      watchExchange: start => ({ settled: ({ record, route }) => void seen.push(`${start.protocol} ${route} ${record.status}`) }),
    };
    const gateway = createGateway({
      config: {
        upstreams: { sim: { protocol: 'openai-chat', baseURL: `${simulatorURL}/v1` } },
        routes: [{ model: 'host-assistant', interfaces: ['chat'], targets: [{ upstream: 'sim', model: 'sim-1' }] }],
      },
      store: keyed.store,
      observer: combineObservers(metrics.observer, ownObserver),
      usageCommitDelayMs: 0,
    });
    adminToken = generateAdminToken();
    const app = express();
    app.use(gateway);
    app.use('/metrics', createMetricsRouter({ registry: metrics.registry, engine: gateway.engine, admin: createAdminService({ store: keyed.store, adminTokenDigests: [digestAdminToken(adminToken)] }) }));
    host = await listenOnLoopback(app);
    close = () => gateway.close();
  });

  afterAll(async () => {
    await host?.close();
    await close?.();
    await simulator.close();
  });

  it('counts a served request and an unknown model in /metrics and tells the host’s own observer', async () => {
    const openai = new OpenAI({ baseURL: `${host.url}/v1`, apiKey: key, maxRetries: 0 });
    const answer = await openai.chat.completions.create({ model: 'host-assistant', messages: [{ role: 'user', content: 'hello' }] });
    expect(answer.choices[0]!.message.content).toEqual(expect.any(String));
    await expect(openai.chat.completions.create({ model: 'made-up-model', messages: [{ role: 'user', content: 'hello' }] })).rejects.toMatchObject({ status: 404 });

    // Settlement runs while the answer is sent: give it the turns it needs.
    for (let turn = 0; turn < 20 && seen.length < 2; turn++) await new Promise(resolve => setImmediate(resolve));
    expect(seen).toEqual(['openai-chat host-assistant 200', 'openai-chat undefined 404']);
    const refused = await fetch(`${host.url}/metrics`);
    expect(refused.status).toBe(401);
    const scraped = await fetch(`${host.url}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toContain('signalbox_requests_total{interface="openai-chat",route="host-assistant",upstream="sim",status="200",outcome="completed",code="none"} 1');
    expect(text).toContain('signalbox_requests_total{interface="openai-chat",route="unknown",upstream="none",status="404",outcome="error",code="MODEL_NOT_FOUND"} 1');
  });
});
