import { z } from 'zod';

/**
 * The error envelope both OpenAI protocols answer with: OpenAI's `{ error: { message, type, param,
 * code } }` plus the gateway's stable service `code` and `request_id` at the top level.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export const openAIErrorEnvelopeSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string().meta({ description: 'OpenAI\'s error type for the status, e.g. `invalid_request_error`, `rate_limit_error`.' }),
      param: z.string().nullable().meta({ description: 'The request field at fault, when there is one.' }),
      code: z.string().nullable().meta({ description: 'OpenAI\'s error code, or the upstream\'s own.' }),
    }),
    code: z.string().meta({ description: 'The gateway\'s stable service code (docs/errors.md).' }),
    request_id: z.string(),
  })
  .meta({ description: 'An error in OpenAI\'s envelope, with the gateway\'s service code and request id.' });

/**
 * `GET /v1/models` in OpenAI's list shape: the routes the caller's key may use.
 * @see https://platform.openai.com/docs/api-reference/models/list
 */
export const openAIModelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      id: z.string().meta({ description: 'A route\'s exact model ID, to send as `model`.' }),
      object: z.literal('model'),
      created: z.int().meta({ description: 'Unix seconds.' }),
      owned_by: z.string(),
    }),
  ),
});
