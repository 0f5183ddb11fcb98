import type { GatewayConfigInput } from '@signalbox/engine';

/** The marker a config file uses for "the simulator embedded in this server". */
export const EMBEDDED_SIMULATOR = 'embedded:simulator';

/**
 * Per-key limits for keys that set none of their own: 64 requests in flight per key and 256 more
 * waiting (30 s at most), so that one busy key holds at most 64 of an upstream's 1,024 connections
 * and the other keys' requests are never queued behind its backlog.
 */
export const DEFAULT_KEY_LIMITS = { concurrency: 64, queueSize: 256, queueTimeoutMs: 30_000 } as const;

/**
 * The embedded defaults: the simulator behind every upstream protocol, so a Responses request served
 * by a Messages-speaking upstream (and every other direction) runs with nothing installed.
 * `sim-responses-only` lacks the Messages interface on purpose. Keys without limits of their own get
 * `DEFAULT_KEY_LIMITS`.
 */
export function createDefaultConfig(simulatorURL: string): GatewayConfigInput {
  return {
    upstreams: {
      'simulator-responses': { protocol: 'openai-responses', baseURL: `${simulatorURL}/v1` },
      'simulator-messages': { protocol: 'anthropic-messages', baseURL: simulatorURL },
      'simulator-chat': { protocol: 'openai-chat', baseURL: `${simulatorURL}/v1` },
    },
    routes: [
      {
        ...simulatorRoute('signalbox-sim', 'simulator-messages'),
        description: 'Simulated model on every interface (Messages upstream, Responses upstream as failover).',
        targets: [
          { upstream: 'simulator-messages', model: 'sim-1' },
          { upstream: 'simulator-responses', model: 'sim-1' },
        ],
      },
      simulatorRoute('sim-via-responses', 'simulator-responses', 'Simulator reached over the OpenAI Responses protocol.'),
      simulatorRoute('sim-via-messages', 'simulator-messages', 'Simulator reached over the Anthropic Messages protocol.'),
      simulatorRoute('sim-via-chat', 'simulator-chat', 'Simulator reached over the OpenAI Chat Completions protocol.'),
      {
        ...simulatorRoute('sim-responses-only', 'simulator-responses', 'A route without Messages support: /v1/messages refuses it.'),
        interfaces: ['responses', 'chat'],
      },
    ],
    limits: { default: { ...DEFAULT_KEY_LIMITS } },
  };
}

type RouteInput = GatewayConfigInput['routes'][number];

/** A route on every interface to one simulator upstream, with demo pricing. */
function simulatorRoute(model: string, upstream: string, description?: string): RouteInput {
  return {
    model,
    ...(description !== undefined && { description }),
    interfaces: ['responses', 'messages', 'chat', 'gemini'],
    targets: [{ upstream, model: 'sim-1' }],
    contextTokens: 128_000,
    pricing: { inputPerMillion: 0.5, outputPerMillion: 1.5 },
  };
}
