// The gateway configuration the benchmark runs: one route to the simulator's Chat Completions
// interface, on every client interface, with pricing (so every request takes a balance hold and is
// charged in the ledger) and every kind of key limit switched on but set far above what the load
// reaches (so each is counted on every request and none refuses one). `pricing: false` and
// `limits: false` switch those off, to measure what they cost. `streams` sizes the upstream pool
// and the key's concurrency for that many streams held open at once. With `bedrockURL` the config
// also has a route to the simulator's Messages interface and one to a `bedrock` kind upstream
// signing with SigV4, both for Messages clients, so the two differ by the kind alone.
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

/** The region the Bedrock route signs for, and the bench Bedrock upstream checks. */
export const BEDROCK_REGION = 'us-east-1';
/** A cross-region inference profile, whose `:` is percent-encoded in the path and in what is signed. */
export const BEDROCK_MODEL_ID = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

/**
 * Writes the config for a gateway in front of the simulator at `simulatorURL` to `path` (JSON), with
 * the Messages and Bedrock routes when `bedrockURL` (the bench Bedrock upstream) is given, and
 * `webSocket` as the config's `webSocket` block when given.
 */
export function writeBenchConfig(path, simulatorURL, { pricing = true, limits = true, streams = 0, bedrockURL, webSocket } = {}) {
  const held = Math.max(GENEROUS_LIMITS.concurrency, streams);
  const connections = Math.max(DEFAULT_CONNECTIONS, streams);
  const route = (model, upstream, upstreamModel, interfaces) => ({
    model,
    interfaces,
    targets: [{ upstream, model: upstreamModel }],
    contextTokens: 128_000,
    ...(pricing && { pricing: { inputPerMillion: 0.5, outputPerMillion: 1.5 } }),
  });
  const config = {
    upstreams: {
      'simulator-chat': { protocol: 'openai-chat', baseURL: `${simulatorURL}/v1`, connections },
      ...(bedrockURL && {
        'simulator-messages': { protocol: 'anthropic-messages', baseURL: simulatorURL, connections },
        bedrock: { kind: 'bedrock', protocol: 'anthropic-messages', baseURL: bedrockURL, connections, auth: { type: 'aws', region: BEDROCK_REGION } },
      }),
    },
    routes: [
      route('sim-via-chat', 'simulator-chat', 'sim-1', ['responses', 'messages', 'chat']),
      ...(bedrockURL ? [route('sim-via-messages', 'simulator-messages', 'sim-1', ['messages']), route('sim-via-bedrock', 'bedrock', BEDROCK_MODEL_ID, ['messages'])] : []),
    ],
    limits: { default: limits ? { ...GENEROUS_LIMITS, concurrency: held, queueSize: held } : {} },
    ...(webSocket && { webSocket }),
  };
  writeFileSync(path, JSON.stringify(config, null, 2));
}
