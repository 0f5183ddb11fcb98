import type { JSONObject } from '@signalbox/core';
import { openAIErrorEnvelopeSchema, openAIModelListSchema } from './openai-openapi-schemas';
import { toOpenAPISchema } from './to-openapi-schema';

/** The component names both OpenAI protocols declare, with the same content. */
export const OPENAI_OPENAPI_NAMES = {
  errorSchema: 'OpenAIError',
  modelListSchema: 'OpenAIModelList',
  securityScheme: 'openAIBearer',
} as const;

/**
 * The components both OpenAI codecs put in the OpenAPI document: the error envelope, the models list
 * and the Bearer scheme (`Authorization: Bearer <gateway key>`, what the `openai` SDK sends).
 * @see https://platform.openai.com/docs/api-reference/authentication
 */
export function describeOpenAISharedComponents(): { schemas: Record<string, JSONObject>; securitySchemes: Record<string, JSONObject> } {
  return {
    schemas: {
      [OPENAI_OPENAPI_NAMES.errorSchema]: toOpenAPISchema(openAIErrorEnvelopeSchema, 'output'),
      [OPENAI_OPENAPI_NAMES.modelListSchema]: toOpenAPISchema(openAIModelListSchema, 'output'),
    },
    securitySchemes: {
      [OPENAI_OPENAPI_NAMES.securityScheme]: {
        type: 'http',
        scheme: 'bearer',
        description: 'A gateway API key (`sbx-…`) as `Authorization: Bearer`, as the `openai` SDK sends its `apiKey`.',
      },
    },
  };
}

/** `GET /v1/models` for an OpenAI client: the routes its key may use, in OpenAI's list shape. */
export function describeOpenAIModelsOperation(): JSONObject {
  return {
    operationId: 'listModels',
    summary: 'List the models (routes) the key may use',
    tags: ['Models'],
    security: [{ [OPENAI_OPENAPI_NAMES.securityScheme]: [] }],
    responses: {
      '200': {
        description: 'The routes the key may use, in config order.',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${OPENAI_OPENAPI_NAMES.modelListSchema}` } } },
      },
    },
  };
}
