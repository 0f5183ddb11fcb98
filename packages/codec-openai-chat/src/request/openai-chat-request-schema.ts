import { z } from 'zod';

/*
 * The CLIENT's Chat Completions body (SDK 7.57 `ChatCompletionCreateParamsBase`), validated before
 * conversion. Nullable fields accept `null` as "not set", as the SDK types allow. Shapes the
 * gateway refuses (custom tools, `input_audio`, the `function` role…) are admitted loosely here so
 * the converter can refuse them with `UNSUPPORTED_PARAMETER` naming the exact path.
 */

const textPartSchema = z.object({ type: z.literal('text'), text: z.string() });
const refusalPartSchema = z.object({ type: z.literal('refusal'), refusal: z.string() });
const imagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({
    url: z.string().min(1),
    detail: z.enum(['auto', 'low', 'high', 'original']).optional(),
  }),
});
const filePartSchema = z.object({
  type: z.literal('file'),
  file: z.object({
    file_data: z.string().optional(),
    file_id: z.string().optional(),
    filename: z.string().optional(),
  }),
});
const audioPartSchema = z.looseObject({ type: z.literal('input_audio') });

const textContentSchema = z.union([z.string(), z.array(textPartSchema)]);
const userContentSchema = z.union([
  z.string(),
  z.array(z.discriminatedUnion('type', [textPartSchema, imagePartSchema, filePartSchema, audioPartSchema])),
]);
const assistantContentSchema = z.union([
  z.string(),
  z.array(z.discriminatedUnion('type', [textPartSchema, refusalPartSchema])),
]);

const toolCallSchema = z.discriminatedUnion('type', [
  z.object({
    id: z.string().min(1),
    type: z.literal('function'),
    function: z.object({ name: z.string().min(1), arguments: z.string() }),
  }),
  z.looseObject({ type: z.literal('custom') }),
]);

const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: textContentSchema, name: z.string().optional() }),
  z.object({ role: z.literal('developer'), content: textContentSchema, name: z.string().optional() }),
  z.object({ role: z.literal('user'), content: userContentSchema, name: z.string().optional() }),
  z.object({
    role: z.literal('assistant'),
    content: assistantContentSchema.nullish(),
    refusal: z.string().nullish(),
    tool_calls: z.array(toolCallSchema).optional(),
    name: z.string().optional(),
    audio: z.unknown().optional(),
    function_call: z.unknown().optional(),
  }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string().min(1), content: textContentSchema }),
  z.looseObject({ role: z.literal('function') }),
]);

const toolSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('function'),
    function: z.object({
      name: z.string().min(1),
      description: z.string().optional(),
      parameters: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
  z.looseObject({ type: z.literal('custom') }),
]);

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
  z.looseObject({ type: z.enum(['allowed_tools', 'custom']) }),
]);

const responseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().min(1),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

const penaltySchema = z.number().min(-2).max(2).nullish();

/** Every field the gateway reads or carries. A key outside this shape is kept as sent (see the decoder). */
export const openAIChatRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  max_completion_tokens: z.int().positive().nullish(),
  max_tokens: z.int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z
    .object({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
    .nullish(),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: responseFormatSchema.optional(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  user: z.string().optional(),
  safety_identifier: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  // Chat-only fields, carried in providerOptions['openai-chat'] for a Chat upstream.
  n: z.int().positive().nullish(),
  presence_penalty: penaltySchema,
  frequency_penalty: penaltySchema,
  logit_bias: z.record(z.string(), z.number()).nullish(),
  seed: z.int().nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.int().min(0).max(20).nullish(),
  store: z.boolean().nullish(),
  service_tier: z.string().nullish(),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_retention: z.string().nullish(),
  prompt_cache_options: z
    .object({ mode: z.enum(['implicit', 'explicit']).optional(), ttl: z.string().optional() })
    .nullish(),
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
});

/** Real Chat fields the gateway cannot serve; present and non-null → 400 `UNSUPPORTED_PARAMETER`. */
export const REFUSED_OPENAI_CHAT_FIELDS = [
  'audio',
  'modalities',
  'prediction',
  'web_search_options',
  'functions',
  'function_call',
  'moderation',
] as const;

/** A validated client body (what `decodeOpenAIChatRequest` converts). */
export type OpenAIChatRequest = z.infer<typeof openAIChatRequestSchema>;
/** One validated client message, any role. */
export type OpenAIChatMessage = OpenAIChatRequest['messages'][number];
/** A validated `user` message. */
export type OpenAIChatUserMessage = Extract<OpenAIChatMessage, { role: 'user' }>;
/** A validated `assistant` message (history). */
export type OpenAIChatAssistantMessage = Extract<OpenAIChatMessage, { role: 'assistant' }>;
