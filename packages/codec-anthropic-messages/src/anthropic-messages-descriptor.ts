import type { ProtocolDescriptor } from '@signalbox/core';
import { readAnthropicRateLimitResets } from './rate-limits/read-anthropic-rate-limit-resets';

/**
 * The Messages protocol over HTTP: `x-api-key` plus `anthropic-version` (the gateway also reads the
 * `provider-version` alias), request ids in `request-id`, and a token-count endpoint.
 *
 * @see https://docs.anthropic.com/en/api/versioning
 * @see https://docs.anthropic.com/en/api/errors (the `request-id` header)
 */
export const anthropicMessagesDescriptor: ProtocolDescriptor = {
  interfaceName: 'messages',
  vendor: 'anthropic',
  generationPath: '/v1/messages',
  tokenCountPath: '/v1/messages/count_tokens',
  modelsPath: '/v1/models',
  upstreamPath: '/v1/messages',
  credential: {
    kind: 'header',
    header: 'x-api-key',
    bearerRefusedHint:
      "`Authorization: Bearer` is not accepted on this endpoint. With @anthropic-ai/sdk 1.x, pass `defaultHeaders: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', authorization: null }`.",
  },
  version: {
    header: 'anthropic-version',
    aliases: ['provider-version'],
    accepted: ['2023-06-01'],
    upstreamDefault: '2023-06-01',
  },
  requestIdHeaders: ['x-request-id', 'request-id'],
  upstreamRequestIdHeaders: ['request-id', 'x-request-id'],
  readRateLimitResets: readAnthropicRateLimitResets,
  diagnosticHeaders: ['anthropic-version', 'anthropic-beta', 'provider-version'],
  // The Stainless-generated SDK describes itself in these.
  clientInfoHeaders: ['x-stainless-lang', 'x-stainless-package-version', 'x-stainless-retry-count'],
  signatureFields: {
    messages: 'the conversation',
    system: 'system text',
    max_tokens: 'the output limit',
    stop_sequences: 'stop sequences',
    thinking: 'reasoning',
  },
  foreignFieldHints: {
    'the conversation': 'the conversation goes in `messages`',
    instructions: 'system text goes in `system`',
    'system text': 'system text goes in `system`',
    'the output limit': 'the output limit is `max_tokens`',
    'a stored conversation': 'send the whole conversation in `messages`',
    reasoning: 'reasoning is set with `thinking` and `output_config.effort`',
    'the reasoning effort': 'the effort is `output_config.effort`',
    'structured output': 'structured output is `output_config.format`',
    'stop sequences': 'stop sequences go in `stop_sequences`',
    'the number of answers': 'Messages returns one answer per request',
  },
  // Beta features are asked for per request; the SDK's `client.beta.messages` also adds `?beta=true`.
  // @see https://docs.anthropic.com/en/api/beta-headers
  forwardedHeaders: ['anthropic-beta'],
  forwardedQuery: ['beta'],
  // Only Anthropic clients send these headers or call a `/messages` path: a strong sign either way.
  recognizes: ({ path, headerNames }) =>
    headerNames.has('x-api-key') || headerNames.has('anthropic-version') || path.includes('/messages') ? 2 : 0,
};
