import { z } from 'zod';

/**
 * The client's `POST /v1/responses` body, top level only. Input items, tools and `tool_choice` are
 * checked one by one afterwards so that errors name their exact path (`input.3.content.0`).
 * Nullable SDK fields accept `null` as "not set".
 */
export const openAIResponsesRequestSchema = z.object({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.unknown())]),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  max_output_tokens: z.number().int().min(16).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  tools: z.array(z.unknown()).nullish(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z
    .object({
      format: z
        .discriminatedUnion('type', [
          z.object({ type: z.literal('text') }),
          z.object({ type: z.literal('json_object') }),
          z.object({
            type: z.literal('json_schema'),
            name: z.string().min(1).max(64),
            schema: z.record(z.string(), z.unknown()),
            description: z.string().nullish(),
            strict: z.boolean().nullish(),
          }),
        ])
        .nullish(),
      verbosity: z.enum(['low', 'medium', 'high']).nullish(),
    })
    .nullish(),
  reasoning: z
    .object({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
      summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
      generate_summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
      context: z.string().nullish(),
      mode: z.string().nullish(),
    })
    .nullish(),
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine(metadata => Object.keys(metadata).length <= 16, 'At most 16 metadata pairs are allowed')
    .nullish(),
  user: z.string().nullish(),
  safety_identifier: z.string().nullish(),
  store: z.boolean().nullish(),
  include: z.array(z.string()).nullish(),
  service_tier: z.string().nullish(),
  truncation: z.enum(['auto', 'disabled']).nullish(),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_retention: z.string().nullish(),
  prompt_cache_options: z.record(z.string(), z.unknown()).nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  stream_options: z.object({ include_obfuscation: z.boolean().nullish() }).nullish(),
  max_tool_calls: z.number().int().min(1).nullish(),
  background: z.boolean().nullish(),
  /** Not in the SDK types, but sent by Codex on every turn: opaque client facts, never part of the answer. */
  client_metadata: z.record(z.string(), z.unknown()).nullish(),
  context_management: z.array(z.unknown()).nullish(),
  moderation: z.record(z.string(), z.unknown()).nullish(),
  image: z.record(z.string(), z.unknown()).nullish(),
  access_programs: z.record(z.string(), z.unknown()).nullish(),
});

/** The validated top-level client body. */
export type OpenAIResponsesRequest = z.infer<typeof openAIResponsesRequestSchema>;

/** Every top-level field the gateway knows; any other is kept as sent (`unknown_fields` of the provider options). */
export const KNOWN_REQUEST_FIELDS: ReadonlySet<string> = new Set([
  ...Object.keys(openAIResponsesRequestSchema.shape),
  'previous_response_id',
  'conversation',
  'prompt',
]);

/** A flat Responses function tool; other tool types are refused before this schema runs. */
export const functionToolSchema = z.object({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

/** A `namespace` tool: functions grouped under a name the model sees (each function checked on its own). */
export const namespaceToolSchema = z.object({
  type: z.literal('namespace'),
  name: z.string().min(1),
  description: z.string().nullish(),
  tools: z.array(z.unknown()).min(1),
});

/** `tool_choice` as strings or an object; which objects the gateway serves is decided afterwards. */
export const toolChoiceSchema = z.union([
  z.enum(['auto', 'none', 'required']),
  z.looseObject({ type: z.string(), name: z.string().min(1).optional() }),
]);

const inputTextPartSchema = z.object({ type: z.literal('input_text'), text: z.string() });
const inputImagePartSchema = z.object({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['low', 'high', 'auto', 'original']).nullish(),
});
const inputFilePartSchema = z.object({
  type: z.literal('input_file'),
  file_data: z.string().nullish(),
  file_url: z.string().nullish(),
  file_id: z.string().nullish(),
  filename: z.string().nullish(),
});

/** Parts of a `function_call_output.output` array. */
export const toolOutputPartSchema = z.discriminatedUnion('type', [
  inputTextPartSchema,
  inputImagePartSchema,
  inputFilePartSchema,
]);

/** Parts of any message's `content` array; which role may use which part is checked afterwards. */
export const contentPartSchema = z.discriminatedUnion('type', [
  inputTextPartSchema,
  inputImagePartSchema,
  inputFilePartSchema,
  z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()).nullish() }),
  z.object({ type: z.literal('refusal'), refusal: z.string() }),
]);

/** One validated content part (any role). */
export type OpenAIResponsesContentPart = z.infer<typeof contentPartSchema>;
/** One validated part of a tool output array. */
export type OpenAIResponsesToolOutputPart = z.infer<typeof toolOutputPartSchema>;

/**
 * An easy message (`type` omitted) or a typed `message` item. Array content is checked part by part
 * with `contentPartSchema`, so an error names the part (a union would only name `content`).
 */
export const messageItemSchema = z.object({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(z.unknown())]),
});

/** A replayed `function_call`; `arguments` is the JSON text the model produced. */
export const functionCallItemSchema = z.object({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  /** Set when the function belongs to a `namespace` tool. */
  namespace: z.string().nullish(),
});

/** A tool result; `call_id` is required here (SDK 7.57 makes it optional, the API does not). */
export const functionCallOutputItemSchema = z.object({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(z.unknown())]),
});

/** A replayed reasoning item; its `id` is not needed (and not kept). */
export const reasoningItemSchema = z.object({
  type: z.literal('reasoning'),
  summary: z.array(z.object({ type: z.literal('summary_text'), text: z.string() })).nullish(),
  content: z.array(z.object({ type: z.literal('reasoning_text'), text: z.string() })).nullish(),
  encrypted_content: z.string().nullish(),
});
