import type { ProtocolDescriptor } from '@signalbox/core';
import { readOpenAIRateLimitResets } from '@signalbox/codec-openai-shared';

/**
 * The Chat Completions protocol over HTTP: `Authorization: Bearer`, request ids in `x-request-id`.
 *
 * @see https://platform.openai.com/docs/api-reference/authentication
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 */
export const openAIChatDescriptor: ProtocolDescriptor = {
  interfaceName: 'chat',
  vendor: 'openai',
  generationPath: '/v1/chat/completions',
  modelsPath: '/v1/models',
  upstreamPath: '/chat/completions',
  credential: { kind: 'bearer' },
  requestIdHeaders: ['x-request-id'],
  upstreamRequestIdHeaders: ['x-request-id'],
  readRateLimitResets: readOpenAIRateLimitResets,
  accountHeaders: ['openai-organization', 'openai-project'],
  diagnosticHeaders: ['openai-beta', 'openai-organization', 'openai-project'],
  // The Stainless-generated SDKs describe themselves in these.
  clientInfoHeaders: ['x-stainless-lang', 'x-stainless-package-version', 'x-stainless-retry-count'],
  signatureFields: {
    messages: 'the conversation',
    max_completion_tokens: 'the output limit',
    max_tokens: 'the output limit',
    stop: 'stop sequences',
    response_format: 'structured output',
    reasoning_effort: 'the reasoning effort',
    n: 'the number of answers',
  },
  foreignFieldHints: {
    'the conversation': 'the conversation goes in `messages`',
    instructions: 'instructions go in a `system` or `developer` message',
    'system text': 'system text goes in a `system` message',
    'the output limit': 'the output limit is `max_completion_tokens`',
    'a stored conversation': 'send the whole conversation in `messages`',
    'stop sequences': 'stop sequences go in `stop`',
    'structured output': 'structured output is `response_format`',
  },
  recognizes: ({ path }) => (path.includes('/chat/') ? 1 : 0),
};
