import type { ProtocolDescriptor } from '@signalbox/core';

/**
 * The Responses protocol over HTTP: `Authorization: Bearer`, request ids in `x-request-id`.
 *
 * @see https://platform.openai.com/docs/api-reference/authentication
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 * @see https://platform.openai.com/docs/api-reference/responses/get
 */
export const openAIResponsesDescriptor: ProtocolDescriptor = {
  interfaceName: 'responses',
  generationPath: '/v1/responses',
  compactionPath: '/v1/responses/compact',
  modelsPath: '/v1/models',
  storedResponsePaths: { response: '/v1/responses/{id}', inputItems: '/v1/responses/{id}/input_items' },
  upstreamPath: '/responses',
  credential: { kind: 'bearer' },
  requestIdHeaders: ['x-request-id'],
  upstreamRequestIdHeaders: ['x-request-id'],
  diagnosticHeaders: ['openai-beta', 'openai-organization', 'openai-project'],
  recognizes: ({ path }) => (path.includes('/responses') ? 1 : 0),
};
