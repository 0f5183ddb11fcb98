import type { JSONObject, OpenAPIDescribeOptions, OpenAPIDescription } from '@signalbox/core';
import { anthropicMessagesDescriptor } from '../anthropic-messages-descriptor';
import {
  anthropicErrorEnvelopeSchema,
  anthropicMessageSchema,
  anthropicModelIdSchema,
  anthropicModelListSchema,
  anthropicRequestBodySchema,
  anthropicStreamEventSchema,
  anthropicTokenCountRequestSchema,
  anthropicTokenCountSchema,
} from './anthropic-openapi-schemas';
import { toOpenAPISchema } from './to-openapi-schema';

const SECURITY_SCHEME = 'anthropicApiKey';
const SECURITY = [{ [SECURITY_SCHEME]: [] }];
const TAGS = ['Messages'];
const jsonContent = (name: string): JSONObject => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });
const VERSION_PARAMETER = { $ref: '#/components/parameters/AnthropicVersion' };
const BETA_PARAMETER = { $ref: '#/components/parameters/AnthropicBeta' };

/**
 * The Messages protocol's part of the OpenAPI document: `POST /v1/messages` (JSON or, with
 * `stream: true`, Server-Sent Events), `POST /v1/messages/count_tokens` and the models list, behind
 * `x-api-key` with the required `anthropic-version` header; errors in Anthropic's envelope.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function describeAnthropicOpenAPI(options: OpenAPIDescribeOptions): OpenAPIDescription {
  const model = anthropicModelIdSchema(options.modelIds);
  const { credential, version } = anthropicMessagesDescriptor;
  return {
    errorSchema: 'AnthropicError',
    operations: {
      generation: { post: generationOperation() },
      'token-count': { post: tokenCountOperation() },
      models: { get: modelsOperation() },
    },
    components: {
      schemas: {
        AnthropicError: toOpenAPISchema(anthropicErrorEnvelopeSchema, 'output'),
        AnthropicModelList: toOpenAPISchema(anthropicModelListSchema, 'output'),
        MessagesRequest: toOpenAPISchema(anthropicRequestBodySchema(model), 'input'),
        MessagesTokenCountRequest: toOpenAPISchema(anthropicTokenCountRequestSchema(model), 'input'),
        MessagesTokenCount: toOpenAPISchema(anthropicTokenCountSchema, 'output'),
        Message: toOpenAPISchema(anthropicMessageSchema, 'output'),
        MessagesStreamEvent: toOpenAPISchema(anthropicStreamEventSchema, 'output'),
      },
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: credential.kind === 'header' ? credential.header : 'x-api-key',
          description: 'A gateway API key (`sbx-…`) in `x-api-key`, as `@anthropic-ai/sdk` sends its `apiKey`. `Authorization: Bearer` is refused here unless the host allows it.',
        },
      },
      parameters: {
        AnthropicVersion: {
          name: version?.header ?? 'anthropic-version',
          in: 'header',
          required: true,
          description: `The Messages API version (also read as \`${(version?.aliases ?? []).join('`, `')}\`).`,
          schema: { type: 'string', enum: [...(version?.accepted ?? ['2023-06-01'])] },
        },
        AnthropicBeta: {
          name: 'anthropic-beta',
          in: 'header',
          required: false,
          description: 'Comma-separated beta flags: forwarded to a Messages upstream, a warning each for another protocol.',
          schema: { type: 'string' },
        },
      },
    },
  };
}

function generationOperation(): JSONObject {
  return {
    operationId: 'createMessage',
    summary: 'Create a message (Messages)',
    tags: TAGS,
    security: SECURITY,
    parameters: [VERSION_PARAMETER, BETA_PARAMETER],
    requestBody: { required: true, content: jsonContent('MessagesRequest') },
    responses: {
      '200': {
        description: 'The Message; with `stream: true`, Server-Sent Events instead.',
        content: {
          ...jsonContent('Message'),
          'text/event-stream': {
            schema: {
              type: 'string',
              description:
                'Server-Sent Events, each `event: <type>` with a `data` JSON object (`MessagesStreamEvent`), from `message_start` to `message_stop`. A failure after the first event is an `error` event, never an HTTP error.',
            },
          },
        },
      },
    },
  };
}

function tokenCountOperation(): JSONObject {
  return {
    operationId: 'countMessageTokens',
    summary: 'Count the input tokens of a Messages request',
    tags: TAGS,
    security: SECURITY,
    parameters: [VERSION_PARAMETER, BETA_PARAMETER],
    requestBody: { required: true, content: jsonContent('MessagesTokenCountRequest') },
    responses: { '200': { description: 'The input token count.', content: jsonContent('MessagesTokenCount') } },
  };
}

function modelsOperation(): JSONObject {
  return {
    operationId: 'listModels',
    summary: 'List the models (routes) the key may use',
    tags: ['Models'],
    security: SECURITY,
    responses: { '200': { description: 'The routes the key may use, in config order.', content: jsonContent('AnthropicModelList') } },
  };
}
