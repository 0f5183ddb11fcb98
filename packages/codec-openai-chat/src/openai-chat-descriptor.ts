import type { ProtocolDescriptor } from '@signalbox/core';

/**
 * The Chat Completions protocol over HTTP: `Authorization: Bearer`, request ids in `x-request-id`.
 *
 * @see https://platform.openai.com/docs/api-reference/authentication
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 */
export const openAIChatDescriptor: ProtocolDescriptor = {
  interfaceName: 'chat',
  generationPath: '/v1/chat/completions',
  modelsPath: '/v1/models',
  upstreamPath: '/chat/completions',
  credential: { kind: 'bearer' },
  requestIdHeaders: ['x-request-id'],
  upstreamRequestIdHeaders: ['x-request-id'],
  diagnosticHeaders: ['openai-beta', 'openai-organization', 'openai-project'],
  recognizes: ({ path }) => (path.includes('/chat/') ? 1 : 0),
};
