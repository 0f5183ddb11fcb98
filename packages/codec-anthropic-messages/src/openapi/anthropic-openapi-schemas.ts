import { z } from 'zod';
import { anthropicRequestSchema } from '../schema/anthropic-request-schema';

/**
 * The client-facing shapes of the Messages protocol as the gateway's OpenAPI document shows them:
 * requests are the decoder's own schema (with the route table's model IDs), answers are described
 * as the encoders write them. Objects stay open: a same-protocol route forwards members an
 * upstream adds.
 * @see https://docs.anthropic.com/en/api/messages
 */

/**
 * A request's `model`: one of the gateway's route model IDs, or any non-empty string when the
 * document is built without a route table.
 */
export function anthropicModelIdSchema(modelIds: readonly string[]): z.ZodType<string> {
  const [first, ...rest] = modelIds;
  const schema = first === undefined ? z.string().min(1) : z.enum([first, ...rest]);
  return schema.meta({ description: 'A route\'s exact model ID (`GET /v1/models` lists those the key may use).' });
}

/** A `POST /v1/messages` body. */
export function anthropicRequestBodySchema(model: z.ZodType) {
  return anthropicRequestSchema.extend({ model });
}

/** A `POST /v1/messages/count_tokens` body: a Messages body without `max_tokens` and `stream`. */
export function anthropicTokenCountRequestSchema(model: z.ZodType) {
  return anthropicRequestSchema.omit({ max_tokens: true, stream: true }).extend({ model });
}

/** The answer of `POST /v1/messages/count_tokens`. */
export const anthropicTokenCountSchema = z.object({ input_tokens: z.int().nonnegative() });

const usageSchema = z.looseObject({
  input_tokens: z.int(),
  output_tokens: z.int(),
  cache_creation_input_tokens: z.int().nullish(),
  cache_read_input_tokens: z.int().nullish(),
  cache_creation: z.object({ ephemeral_5m_input_tokens: z.int(), ephemeral_1h_input_tokens: z.int() }).nullish(),
});

/**
 * A Message: the answer of a request without `stream`.
 * @see https://docs.anthropic.com/en/api/messages
 */
export const anthropicMessageSchema = z.looseObject({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(
    z.union([
      z.looseObject({ type: z.literal('text'), text: z.string() }),
      z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
      z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
      z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) }),
      z.looseObject({ type: z.string() }),
    ]),
  ),
  stop_reason: z.string().nullable(),
  stop_sequence: z.string().nullish(),
  usage: usageSchema,
});

/**
 * One event of a streamed Message (`stream: true`), sent as `event: <type>` with this JSON as `data`:
 * `message_start`, `content_block_start`/`_delta`/`_stop`, `message_delta`, `message_stop`, `ping`,
 * and `error` for a failure after the first event.
 * @see https://docs.anthropic.com/en/api/messages-streaming
 */
export const anthropicStreamEventSchema = z.looseObject({
  type: z.enum(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping', 'error']),
});

/**
 * `GET /v1/models` in Anthropic's page shape: the routes the caller's key may use.
 * @see https://docs.anthropic.com/en/api/models-list
 */
export const anthropicModelListSchema = z.object({
  data: z.array(
    z.object({
      type: z.literal('model'),
      id: z.string().meta({ description: 'A route\'s exact model ID, to send as `model`.' }),
      display_name: z.string(),
      created_at: z.string().meta({ description: 'ISO 8601.' }),
    }),
  ),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});

/**
 * The error envelope: Anthropic's `{ type: 'error', error: { type, message } }` plus the gateway's
 * stable service `code` and `request_id`.
 * @see https://docs.anthropic.com/en/api/errors
 */
export const anthropicErrorEnvelopeSchema = z
  .object({
    type: z.literal('error'),
    error: z.object({
      type: z.string().meta({ description: 'Anthropic\'s error type, e.g. `invalid_request_error`, `rate_limit_error`, `overloaded_error`.' }),
      message: z.string(),
    }),
    request_id: z.string(),
    code: z.string().meta({ description: 'The gateway\'s stable service code (docs/errors.md).' }),
  })
  .meta({ description: 'An error in Anthropic\'s envelope, with the gateway\'s service code and request id.' });
