import type { GatewayConfigInput } from '@switchyard/engine';

/** The marker a config file uses for "the simulator embedded in this server". */
export const EMBEDDED_SIMULATOR = 'embedded:simulator';

const pricing = { inputPerMillion: 0.5, outputPerMillion: 1.5 };

/**
 * The embedded defaults: the simulator behind every upstream protocol, so a Responses request served
 * by a Messages-speaking upstream (and every other direction) runs with nothing installed.
 * `sim-responses-only` lacks the Messages interface on purpose.
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
        model: 'switchyard-sim',
        description: 'Simulated model on every interface (Messages upstream, Responses upstream as failover).',
        interfaces: ['responses', 'messages', 'chat'],
        targets: [
          { upstream: 'simulator-messages', model: 'sim-1' },
          { upstream: 'simulator-responses', model: 'sim-1' },
        ],
        contextTokens: 128_000,
        pricing,
      },
      {
        model: 'sim-via-responses',
        description: 'Simulator reached over the OpenAI Responses protocol.',
        interfaces: ['responses', 'messages', 'chat'],
        targets: [{ upstream: 'simulator-responses', model: 'sim-1' }],
        contextTokens: 128_000,
        pricing,
      },
      {
        model: 'sim-via-messages',
        description: 'Simulator reached over the Anthropic Messages protocol.',
        interfaces: ['responses', 'messages', 'chat'],
        targets: [{ upstream: 'simulator-messages', model: 'sim-1' }],
        contextTokens: 128_000,
        pricing,
      },
      {
        model: 'sim-via-chat',
        description: 'Simulator reached over the OpenAI Chat Completions protocol.',
        interfaces: ['responses', 'messages', 'chat'],
        targets: [{ upstream: 'simulator-chat', model: 'sim-1' }],
        contextTokens: 128_000,
        pricing,
      },
      {
        model: 'sim-responses-only',
        description: 'A route without Messages support: /v1/messages refuses it.',
        interfaces: ['responses', 'chat'],
        targets: [{ upstream: 'simulator-responses', model: 'sim-1' }],
        contextTokens: 128_000,
        pricing,
      },
    ],
  };
}
