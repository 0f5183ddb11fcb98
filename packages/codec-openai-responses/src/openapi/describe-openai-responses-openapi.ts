import {
  describeOpenAIModelsOperation,
  describeOpenAISharedComponents,
  modelIdSchema,
  OPENAI_OPENAPI_NAMES,
  toOpenAPISchema,
} from '@signalbox/codec-openai-shared';
import type { JSONObject, OpenAPIDescribeOptions, OpenAPIDescription } from '@signalbox/core';
import {
  openAIResponsesCompactedSchema,
  openAIResponsesCompactionRequestSchema,
  openAIResponsesDeletedSchema,
  openAIResponsesInputItemListSchema,
  openAIResponsesObjectSchema,
  openAIResponsesRequestBodySchema,
  openAIResponsesStreamEventSchema,
} from './openai-responses-openapi-schemas';

const SECURITY = [{ [OPENAI_OPENAPI_NAMES.securityScheme]: [] }];
const TAGS = ['Responses'];
const reference = (name: string): JSONObject => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (name: string): JSONObject => ({ 'application/json': { schema: reference(name) } });

/** The stored response's id in the path (`resp_…`). */
const RESPONSE_ID_PARAMETER: JSONObject = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The id of a response the same account stored (`resp_…`).',
  schema: { type: 'string' },
};

/**
 * The Responses protocol's part of the OpenAPI document: `POST /v1/responses` (JSON or, with
 * `stream: true`, Server-Sent Events), remote compaction, the stored-response endpoints and the
 * models list, behind `Authorization: Bearer`; errors in OpenAI's envelope.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
export function describeOpenAIResponsesOpenAPI(options: OpenAPIDescribeOptions): OpenAPIDescription {
  const model = modelIdSchema(options.modelIds);
  const shared = describeOpenAISharedComponents();
  return {
    errorSchema: OPENAI_OPENAPI_NAMES.errorSchema,
    operations: {
      generation: { post: generationOperation() },
      compaction: { post: compactionOperation() },
      models: { get: describeOpenAIModelsOperation() },
      'stored-response': { get: retrieveOperation(), delete: deleteOperation() },
      'stored-input-items': { get: inputItemsOperation() },
    },
    components: {
      schemas: {
        ...shared.schemas,
        ResponsesRequest: toOpenAPISchema(openAIResponsesRequestBodySchema(model), 'input'),
        ResponsesCompactRequest: toOpenAPISchema(openAIResponsesCompactionRequestSchema(model), 'input'),
        Response: toOpenAPISchema(openAIResponsesObjectSchema, 'output'),
        ResponsesStreamEvent: toOpenAPISchema(openAIResponsesStreamEventSchema, 'output'),
        ResponsesCompacted: toOpenAPISchema(openAIResponsesCompactedSchema, 'output'),
        ResponsesDeleted: toOpenAPISchema(openAIResponsesDeletedSchema, 'output'),
        ResponsesInputItemList: toOpenAPISchema(openAIResponsesInputItemListSchema, 'output'),
      },
      securitySchemes: shared.securitySchemes,
    },
  };
}

function generationOperation(): JSONObject {
  return {
    operationId: 'createResponse',
    summary: 'Create a model response (Responses)',
    description:
      'Also served over WebSocket when the host attached it: `GET` on this path with `Upgrade: websocket`, then one `{"type": "response.create", …}` text frame (this body, plus `generate: false` for a warm-up) per response, answered with the stream events below as one JSON text frame each. OpenAPI does not describe WebSocket messages; see the README, "Responses over WebSocket".',
    tags: TAGS,
    security: SECURITY,
    requestBody: { required: true, content: jsonContent('ResponsesRequest') },
    responses: {
      '200': {
        description: 'The Response object; with `stream: true`, Server-Sent Events instead.',
        content: {
          ...jsonContent('Response'),
          'text/event-stream': {
            schema: {
              type: 'string',
              description:
                'Server-Sent Events, each `event: <type>` with a `data` JSON object (`ResponsesStreamEvent`), ending with `response.completed`, `response.incomplete` or `response.failed`. A failure after the first event is a `response.failed` or `error` event, never an HTTP error.',
            },
          },
        },
      },
    },
  };
}

function compactionOperation(): JSONObject {
  return {
    operationId: 'compactResponse',
    summary: 'Compact a conversation into one sealed compaction item',
    tags: TAGS,
    security: SECURITY,
    requestBody: { required: true, content: jsonContent('ResponsesCompactRequest') },
    responses: { '200': { description: 'The kept user messages and one compaction item.', content: jsonContent('ResponsesCompacted') } },
  };
}

function retrieveOperation(): JSONObject {
  return {
    operationId: 'getResponse',
    summary: 'Read a stored response',
    tags: TAGS,
    security: SECURITY,
    parameters: [RESPONSE_ID_PARAMETER],
    responses: { '200': { description: 'The stored Response object.', content: jsonContent('Response') } },
  };
}

function deleteOperation(): JSONObject {
  return {
    operationId: 'deleteResponse',
    summary: 'Delete a stored response',
    tags: TAGS,
    security: SECURITY,
    parameters: [RESPONSE_ID_PARAMETER],
    responses: { '200': { description: 'The response was deleted.', content: jsonContent('ResponsesDeleted') } },
  };
}

function inputItemsOperation(): JSONObject {
  const query = (name: string, schema: JSONObject, description: string): JSONObject => ({ name, in: 'query', required: false, description, schema });
  return {
    operationId: 'listResponseInputItems',
    summary: 'List a stored response\'s input items',
    tags: TAGS,
    security: SECURITY,
    parameters: [
      RESPONSE_ID_PARAMETER,
      query('after', { type: 'string' }, 'List items after this item id.'),
      query('before', { type: 'string' }, 'List items before this item id.'),
      query('limit', { type: 'integer', minimum: 1, maximum: 100, default: 20 }, 'Items per page.'),
      query('order', { type: 'string', enum: ['asc', 'desc'], default: 'desc' }, 'Oldest or newest first.'),
    ],
    responses: { '200': { description: 'One page of input items.', content: jsonContent('ResponsesInputItemList') } },
  };
}
