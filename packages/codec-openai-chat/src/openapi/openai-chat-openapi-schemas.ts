import { z } from 'zod';
import { openAIChatRequestSchema } from '../request/openai-chat-request-schema';

/**
 * The client-facing shapes of Chat Completions as the gateway's OpenAPI document shows them: the
 * request is the decoder's own schema (with the route table's model IDs), answers are described
 * as the encoders write them. Objects stay open: a same-protocol route forwards members an
 * upstream adds (`system_fingerprint`, `service_tier`, …).
 * @see https://platform.openai.com/docs/api-reference/chat
 */

/** A `POST /v1/chat/completions` body. */
export function openAIChatRequestBodySchema(model: z.ZodType) {
  return openAIChatRequestSchema.extend({ model });
}

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const usageSchema = z.looseObject({
  prompt_tokens: z.int(),
  completion_tokens: z.int(),
  total_tokens: z.int(),
});

/**
 * A `chat.completion` object: the answer of a request without `stream`.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export const openAIChatCompletionSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.int(),
      message: z.looseObject({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        refusal: z.string().nullish(),
        tool_calls: z.array(toolCallSchema).optional(),
      }),
      finish_reason: z.string().nullable(),
    }),
  ),
  usage: usageSchema.optional(),
});

/**
 * One `data:` frame of a streamed answer (`stream: true`): a `chat.completion.chunk`, or `{ error }`
 * for a failure after the first frame; the stream ends with `data: [DONE]`.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export const openAIChatChunkEventSchema = z.union([
  z.looseObject({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.int(),
    model: z.string(),
    choices: z.array(
      z.looseObject({
        index: z.int(),
        delta: z.looseObject({ role: z.string().optional(), content: z.string().nullish(), tool_calls: z.array(z.looseObject({ index: z.int() })).optional() }),
        finish_reason: z.string().nullish(),
      }),
    ),
    usage: usageSchema.nullish(),
  }),
  z.looseObject({ error: z.looseObject({ message: z.string() }) }),
]);
