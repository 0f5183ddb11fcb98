// The gateway configuration the benchmark runs: one route to the simulator's Chat Completions
// interface, on every client interface, with pricing (so every request takes a balance hold and is
// charged in the ledger) and every kind of key limit switched on but set far above what the load
// reaches (so each is counted on every request and none refuses one). `pricing: false` and
// `limits: false` switch those off, to measure what they cost. `streams` sizes the upstream pool
// and the key's concurrency for that many streams held open at once.
import { writeFileSync } from 'node:fs';
import { DEFAULT_UPSTREAM_CONNECTIONS } from '../../packages/upstream/dist/index.js';

const GENEROUS_LIMITS = {
  requests: 1_000_000_000,
  tokens: 1_000_000_000_000,
  windowSeconds: 60,
  concurrency: 4096,
  queueSize: 4096,
  queueTimeoutMs: 30_000,
  quotaTokens: 1_000_000_000_000,
  quotaPeriodHours: 24,
};

/** The gateway's default upstream pool, and the floor's, unless more streams are held. */
export const DEFAULT_CONNECTIONS = DEFAULT_UPSTREAM_CONNECTIONS;

/** Writes the config for a gateway in front of the simulator at `simulatorURL` to `path` (JSON); `webSocket` is the config's `webSocket` block, when given. */
export function writeBenchConfig(path, simulatorURL, { pricing = true, limits = true, streams = 0, webSocket } = {}) {
  const held = Math.max(GENEROUS_LIMITS.concurrency, streams);
  const config = {
    upstreams: { 'simulator-chat': { protocol: 'openai-chat', baseURL: `${simulatorURL}/v1`, connections: Math.max(DEFAULT_CONNECTIONS, streams) } },
    routes: [
      {
        model: 'sim-via-chat',
        interfaces: ['responses', 'messages', 'chat'],
        targets: [{ upstream: 'simulator-chat', model: 'sim-1' }],
        contextTokens: 128_000,
        ...(pricing && { pricing: { inputPerMillion: 0.5, outputPerMillion: 1.5 } }),
      },
    ],
    limits: { default: limits ? { ...GENEROUS_LIMITS, concurrency: held, queueSize: held } : {} },
    ...(webSocket && { webSocket }),
  };
  writeFileSync(path, JSON.stringify(config, null, 2));
}
