import { assertNever, type JSONObject, type ResponseFormat } from '@signalbox/core';

/**
 * An IR response format in OpenAI's words. Both OpenAI protocols use the same members; Chat nests
 * the JSON-schema fields under `json_schema`, Responses puts them beside `type` (`nest`).
 * OpenAI requires a schema `name`: sources without one (Messages) get `response`.
 * @see https://platform.openai.com/docs/api-reference/chat (`response_format`)
 * @see https://platform.openai.com/docs/api-reference/responses (`text.format`)
 */
export function encodeOpenAIResponseFormat(format: ResponseFormat, nest: boolean): JSONObject {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json-object':
      return { type: 'json_object' };
    case 'json-schema': {
      const schema: JSONObject = {
        name: format.name ?? 'response',
        schema: format.schema,
        ...(format.description !== undefined && { description: format.description }),
        ...(format.strict !== undefined && { strict: format.strict }),
      };
      return nest ? { type: 'json_schema', json_schema: schema } : { type: 'json_schema', ...schema };
    }
    default:
      return assertNever(format, 'IR response format');
  }
}
