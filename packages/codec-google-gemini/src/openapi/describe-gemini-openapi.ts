import type { JSONObject, OpenAPIDescribeOptions, OpenAPIDescription } from '@signalbox/core';
import {
  geminiAnswerSchema,
  geminiChunkSchema,
  geminiCountTokensRequestSchema,
  geminiCountTokensSchema,
  geminiErrorEnvelopeSchema,
  geminiModelListSchema,
  geminiRequestBodySchema,
} from './gemini-openapi-schemas';
import { toOpenAPISchema } from './to-openapi-schema';

const SECURITY = [{ googleApiKey: [] }, { googleApiKeyQuery: [] }];
const TAGS = ['Gemini'];
const jsonContent = (name: string): JSONObject => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });
const MODEL_PARAMETER = { $ref: '#/components/parameters/GeminiModel' };

/**
 * Gemini's part of the OpenAPI document: `generateContent`, `streamGenerateContent` (SSE with
 * `alt=sse`, else one JSON array), `countTokens` and the models list, the model in the path, the key
 * in `x-goog-api-key` or `?key=`; errors in Google's envelope.
 * @see https://ai.google.dev/api/generate-content
 */
export function describeGeminiOpenAPI(options: OpenAPIDescribeOptions): OpenAPIDescription {
  return {
    errorSchema: 'GeminiError',
    operations: {
      generation: { post: generationOperation() },
      'stream-generation': { post: streamOperation() },
      'token-count': { post: tokenCountOperation() },
      models: { get: modelsOperation() },
    },
    components: {
      schemas: {
        GeminiError: toOpenAPISchema(geminiErrorEnvelopeSchema, 'output'),
        GenerateContentRequest: toOpenAPISchema(geminiRequestBodySchema, 'input'),
        GenerateContentResponse: toOpenAPISchema(geminiAnswerSchema, 'output'),
        GenerateContentChunk: toOpenAPISchema(geminiChunkSchema, 'output'),
        CountTokensRequest: toOpenAPISchema(geminiCountTokensRequestSchema, 'input'),
        CountTokensResponse: toOpenAPISchema(geminiCountTokensSchema, 'output'),
        GeminiModelList: toOpenAPISchema(geminiModelListSchema, 'output'),
      },
      securitySchemes: {
        googleApiKey: { type: 'apiKey', in: 'header', name: 'x-goog-api-key', description: 'A gateway API key (`sbx-…`), as the Google SDKs send their `apiKey`.' },
        googleApiKeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'The same key in the URL; the gateway never logs, traces or records it.' },
      },
      parameters: {
        GeminiModel: {
          name: 'model',
          in: 'path',
          required: true,
          description: 'A route\'s exact model ID (`GET /v1beta/models` lists those the key may use).',
          schema: options.modelIds.length > 0 ? { type: 'string', enum: [...options.modelIds] } : { type: 'string', minLength: 1 },
        },
      },
    },
  };
}

function generationOperation(): JSONObject {
  return {
    operationId: 'generateContent',
    summary: 'Generate content (Gemini)',
    tags: TAGS,
    security: SECURITY,
    parameters: [MODEL_PARAMETER],
    requestBody: { required: true, content: jsonContent('GenerateContentRequest') },
    responses: { '200': { description: 'One `GenerateContentResponse` with one candidate.', content: jsonContent('GenerateContentResponse') } },
  };
}

function streamOperation(): JSONObject {
  return {
    operationId: 'streamGenerateContent',
    summary: 'Generate content as a stream (Gemini)',
    tags: TAGS,
    security: SECURITY,
    parameters: [MODEL_PARAMETER, { name: 'alt', in: 'query', required: false, description: '`sse` for Server-Sent Events; without it, one JSON array written as it grows.', schema: { type: 'string', enum: ['sse'] } }],
    requestBody: { required: true, content: jsonContent('GenerateContentRequest') },
    responses: {
      '200': {
        description: 'Chunks, each a `GenerateContentChunk` (a response with a delta, the last with `finishReason` and `usageMetadata`, or `{ error }` for a failure after the first chunk).',
        content: {
          'text/event-stream': { schema: { type: 'string', description: 'With `alt=sse`: Server-Sent Events without event names, each `data` a JSON `GenerateContentChunk`.' } },
          'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/GenerateContentChunk' } } },
        },
      },
    },
  };
}

function tokenCountOperation(): JSONObject {
  return {
    operationId: 'countTokens',
    summary: 'Count the tokens of a request (the gateway\'s estimate)',
    tags: TAGS,
    security: SECURITY,
    parameters: [MODEL_PARAMETER],
    requestBody: { required: true, content: jsonContent('CountTokensRequest') },
    responses: { '200': { description: 'The estimate, as `totalTokens`.', content: jsonContent('CountTokensResponse') } },
  };
}

function modelsOperation(): JSONObject {
  return {
    operationId: 'listGeminiModels',
    summary: 'List the models (routes) the key may use, in Gemini\'s shape',
    tags: ['Models'],
    security: SECURITY,
    responses: { '200': { description: 'The routes the key may use, in config order.', content: jsonContent('GeminiModelList') } },
  };
}
