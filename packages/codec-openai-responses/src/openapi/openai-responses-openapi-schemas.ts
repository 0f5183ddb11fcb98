import { z } from 'zod';
import {
  contentPartSchema,
  functionCallItemSchema,
  functionCallOutputItemSchema,
  functionToolSchema,
  messageItemSchema,
  namespaceToolSchema,
  openAIResponsesRequestSchema,
  reasoningItemSchema,
  toolChoiceSchema,
} from '../request/openai-responses-request-schema';

/**
 * The client-facing shapes of the Responses protocol as the gateway's OpenAPI document shows them.
 * Requests reuse the schemas the decoder validates with, with the item and tool shapes it checks
 * one by one afterwards filled in; answers are described as the encoders write them. Objects stay
 * open (`additionalProperties` allowed): a same-protocol route forwards members an upstream adds.
 * @see https://platform.openai.com/docs/api-reference/responses
 */

/** Any other input item (`item_reference`, `compaction`, `compaction_trigger`, replayed built-in tool items). */
const otherInputItemSchema = z.looseObject({ type: z.string() });

/** One item of `input`: a message, a replayed function call, its output, reasoning, or another typed item. */
export const openAIResponsesInputItemSchema = z.union([
  messageItemSchema.extend({ content: z.union([z.string(), z.array(contentPartSchema)]) }),
  functionCallItemSchema,
  functionCallOutputItemSchema,
  reasoningItemSchema,
  otherInputItemSchema,
]);

/** A `POST /v1/responses` body: the decoder's top-level schema with `input`, `tools` and `tool_choice` spelled out. */
export function openAIResponsesRequestBodySchema(model: z.ZodType) {
  return openAIResponsesRequestSchema.extend({
    model,
    input: z.union([z.string(), z.array(openAIResponsesInputItemSchema)]),
    tools: z.array(z.union([functionToolSchema, namespaceToolSchema, z.looseObject({ type: z.string() })])).nullish(),
    tool_choice: toolChoiceSchema.optional(),
    previous_response_id: z.string().nullish().meta({ description: 'Continue a stored response of the same account.' }),
  });
}

/** A `POST /v1/responses/compact` body: the conversation to summarize. */
export function openAIResponsesCompactionRequestSchema(model: z.ZodType) {
  return z.looseObject({
    model,
    input: z.union([z.string(), z.array(openAIResponsesInputItemSchema)]).optional(),
    instructions: z.string().nullish(),
    previous_response_id: z.string().nullish(),
  });
}

const outputTextSchema = z.looseObject({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()).optional() });
const refusalSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/** One item of a response's `output`. */
export const openAIResponsesOutputItemSchema = z.union([
  z.looseObject({
    type: z.literal('message'),
    id: z.string(),
    role: z.literal('assistant'),
    status: z.string().optional(),
    content: z.array(z.union([outputTextSchema, refusalSchema])),
  }),
  z.looseObject({ type: z.literal('function_call'), id: z.string().optional(), call_id: z.string(), name: z.string(), arguments: z.string() }),
  z.looseObject({
    type: z.literal('reasoning'),
    id: z.string(),
    summary: z.array(z.looseObject({ type: z.literal('summary_text'), text: z.string() })),
    encrypted_content: z.string().nullish(),
  }),
  z.looseObject({ type: z.literal('compaction'), id: z.string(), encrypted_content: z.string() }),
  z.looseObject({ type: z.string() }),
]);

/** A response's `usage`; every count present (0 when the upstream reported none). */
export const openAIResponsesUsageSchema = z.looseObject({
  input_tokens: z.int(),
  input_tokens_details: z.looseObject({ cached_tokens: z.int() }).optional(),
  output_tokens: z.int(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.int() }).optional(),
  total_tokens: z.int(),
});

/**
 * A Response object: the answer of `POST /v1/responses` and `GET /v1/responses/{id}`.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export const openAIResponsesObjectSchema = z.looseObject({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number(),
  status: z.enum(['completed', 'incomplete', 'failed', 'in_progress', 'queued', 'cancelled']),
  model: z.string(),
  output: z.array(openAIResponsesOutputItemSchema),
  error: z.looseObject({ code: z.string().nullish(), message: z.string() }).nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  usage: openAIResponsesUsageSchema.nullish(),
});

/**
 * One event of a streamed response (`stream: true`), sent as `event: <type>` with this JSON as `data`:
 * `response.created`, `response.in_progress`, `response.output_item.added`, `response.output_text.delta`,
 * …, and one terminal `response.completed`, `response.incomplete` or `response.failed` (or `error`).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export const openAIResponsesStreamEventSchema = z.looseObject({
  type: z.string().meta({ examples: ['response.created', 'response.output_text.delta', 'response.completed', 'response.failed', 'error'] }),
  sequence_number: z.int().optional(),
});

/** The answer of `DELETE /v1/responses/{id}`. */
export const openAIResponsesDeletedSchema = z.object({ id: z.string(), object: z.literal('response.deleted'), deleted: z.literal(true) });

/** A page of `GET /v1/responses/{id}/input_items`. */
export const openAIResponsesInputItemListSchema = z.object({
  object: z.literal('list'),
  data: z.array(z.looseObject({ id: z.string(), type: z.string() })),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});

/**
 * The answer of `POST /v1/responses/compact`: the kept user messages, then one sealed `compaction` item.
 * @see https://platform.openai.com/docs/api-reference/responses/compact
 */
export const openAIResponsesCompactedSchema = z.looseObject({
  id: z.string(),
  object: z.literal('response.compaction'),
  created_at: z.number(),
  output: z.array(openAIResponsesOutputItemSchema),
  usage: openAIResponsesUsageSchema,
});
