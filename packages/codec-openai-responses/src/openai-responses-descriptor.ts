import type { ProtocolDescriptor } from '@signalbox/core';
import { readOpenAIRateLimitResets } from '@signalbox/codec-openai-shared';

/**
 * The Responses protocol over HTTP: `Authorization: Bearer`, request ids in `x-request-id`.
 *
 * @see https://platform.openai.com/docs/api-reference/authentication
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 * @see https://platform.openai.com/docs/api-reference/responses/get
 */
export const openAIResponsesDescriptor: ProtocolDescriptor = {
  interfaceName: 'responses',
  vendor: 'openai',
  generationPath: '/v1/responses',
  compactionPath: '/v1/responses/compact',
  modelsPath: '/v1/models',
  storedResponsePaths: { response: '/v1/responses/{id}', inputItems: '/v1/responses/{id}/input_items' },
  upstreamPath: '/responses',
  credential: { kind: 'bearer' },
  requestIdHeaders: ['x-request-id'],
  upstreamRequestIdHeaders: ['x-request-id'],
  readRateLimitResets: readOpenAIRateLimitResets,
  accountHeaders: ['openai-organization', 'openai-project'],
  diagnosticHeaders: ['openai-beta', 'openai-organization', 'openai-project'],
  // The Stainless-generated SDKs describe themselves in these.
  clientInfoHeaders: ['x-stainless-lang', 'x-stainless-package-version', 'x-stainless-retry-count'],
  signatureFields: {
    input: 'the conversation',
    instructions: 'instructions',
    max_output_tokens: 'the output limit',
    previous_response_id: 'a stored conversation',
    reasoning: 'reasoning',
    text: 'structured output',
  },
  foreignFieldHints: {
    'the conversation': 'the conversation goes in `input`',
    'system text': 'system text goes in `instructions`',
    'the output limit': 'the output limit is `max_output_tokens`',
    'stop sequences': 'the Responses API has no stop parameter',
    'structured output': 'structured output is `text.format`',
    'the reasoning effort': 'the effort is `reasoning.effort`',
    reasoning: 'reasoning is set with `reasoning`',
    'the number of answers': 'the Responses API returns one answer per request',
  },
  recognizes: ({ path }) => (path.includes('/responses') ? 1 : 0),
};
