import {
  describeOpenAIModelsOperation,
  describeOpenAISharedComponents,
  modelIdSchema,
  OPENAI_OPENAPI_NAMES,
  toOpenAPISchema,
} from '@signalbox/codec-openai-shared';
import type { OpenAPIDescribeOptions, OpenAPIDescription } from '@signalbox/core';
import { openAIChatChunkEventSchema, openAIChatCompletionSchema, openAIChatRequestBodySchema } from './openai-chat-openapi-schemas';

/**
 * The Chat Completions protocol's part of the OpenAPI document: `POST /v1/chat/completions` (JSON
 * or, with `stream: true`, Server-Sent Events) and the models list, behind `Authorization: Bearer`;
 * errors in OpenAI's envelope.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function describeOpenAIChatOpenAPI(options: OpenAPIDescribeOptions): OpenAPIDescription {
  const shared = describeOpenAISharedComponents();
  return {
    errorSchema: OPENAI_OPENAPI_NAMES.errorSchema,
    operations: {
      generation: {
        post: {
          operationId: 'createChatCompletion',
          summary: 'Create a chat completion (Chat Completions)',
          tags: ['Chat Completions'],
          security: [{ [OPENAI_OPENAPI_NAMES.securityScheme]: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ChatCompletionRequest' } } } },
          responses: {
            '200': {
              description: 'The `chat.completion` object; with `stream: true`, Server-Sent Events instead.',
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/ChatCompletion' } },
                'text/event-stream': {
                  schema: {
                    type: 'string',
                    description:
                      'Server-Sent Events without event names: each `data` is a JSON `ChatCompletionChunk` (a chunk, or `{ error }` for a failure after the first chunk), then `data: [DONE]`.',
                  },
                },
              },
            },
          },
        },
      },
      models: { get: describeOpenAIModelsOperation() },
    },
    components: {
      schemas: {
        ...shared.schemas,
        ChatCompletionRequest: toOpenAPISchema(openAIChatRequestBodySchema(modelIdSchema(options.modelIds)), 'input'),
        ChatCompletion: toOpenAPISchema(openAIChatCompletionSchema, 'output'),
        ChatCompletionChunk: toOpenAPISchema(openAIChatChunkEventSchema, 'output'),
      },
      securitySchemes: shared.securitySchemes,
    },
  };
}
