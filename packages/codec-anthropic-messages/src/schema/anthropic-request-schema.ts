import { z } from 'zod';
import {
  anthropicCacheControlSchema,
  anthropicContentBlockSchema,
  anthropicTextBlockSchema,
} from './anthropic-content-schema';

/**
 * One turn of `messages`. Besides user and assistant turns the API takes `role: "system"` turns
 * (text only) between them: instructions that apply from that point of the conversation on.
 * @see https://docs.anthropic.com/en/api/messages
 */
const messageSchema = z.discriminatedUnion('role', [
  z.object({
    role: z.enum(['user', 'assistant']),
    content: z.union([z.string(), z.array(anthropicContentBlockSchema)]),
  }),
  z.object({
    role: z.literal('system'),
    content: z.union([z.string(), z.array(anthropicTextBlockSchema)]),
  }),
]);

const toolSchema = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
  strict: z.boolean().optional(),
  cache_control: anthropicCacheControlSchema,
  type: z.literal('custom').nullish(),
  defer_loading: z.boolean().optional(),
  eager_input_streaming: z.boolean().nullish(),
  input_examples: z.array(z.unknown()).optional(),
  allowed_callers: z.array(z.string()).optional(),
});

const disableParallel = z.boolean().optional();
const toolChoiceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), disable_parallel_tool_use: disableParallel }),
  z.object({ type: z.literal('any'), disable_parallel_tool_use: disableParallel }),
  z.object({ type: z.literal('tool'), name: z.string().min(1), disable_parallel_tool_use: disableParallel }),
  z.object({ type: z.literal('none') }),
]);

/**
 * How thinking is shown (`summarized`, `omitted`, and values added under beta flags, such as
 * Claude Code's `updates` with `thinking-display-updates-2026-08-18`). The gateway only passes it on
 * to a Messages upstream, so any value the API may accept next goes through.
 */
const thinkingDisplay = z.string().min(1).nullish();
const thinkingSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('enabled'),
    budget_tokens: z.number().int().min(1024),
    display: thinkingDisplay,
  }),
  z.object({ type: z.literal('adaptive'), display: thinkingDisplay }),
  z.object({ type: z.literal('disabled') }),
  z.object({ type: z.literal('between_tools') }),
]);

/** Anthropic's effort words (`output_config.effort`). */
export const ANTHROPIC_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

const outputConfigSchema = z.object({
  effort: z.enum(ANTHROPIC_EFFORTS).nullish(),
  format: z.object({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) }).nullish(),
});

/**
 * A client's `POST /v1/messages` body (API version 2023-06-01). Field-level strictness mirrors the
 * API; top-level fields outside this shape are not checked (the decoder keeps them as sent, for a
 * same-protocol route to forward), apart from the gateway's other endpoints' (`parseAnthropicRequest`).
 */
export const anthropicRequestSchema = z.object({
  model: z.string().min(1),
  max_tokens: z.number().int().min(1),
  messages: z.array(messageSchema).min(1),
  system: z.union([z.string(), z.array(anthropicTextBlockSchema)]).optional(),
  stream: z.boolean().optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  metadata: z.strictObject({ user_id: z.string().nullish() }).optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  thinking: thinkingSchema.optional(),
  output_config: outputConfigSchema.optional(),
  service_tier: z.enum(['auto', 'standard_only']).optional(),
  cache_control: anthropicCacheControlSchema,
  container: z.union([z.string(), z.looseObject({})]).nullish(),
  speed: z.enum(['standard', 'fast']).nullish(),
  inference_geo: z.string().nullish(),
  diagnostics: z.looseObject({}).nullish(),
  // Fields of the beta Messages API (sent with `anthropic-beta` flags), checked only as far as their
  // outer shape: their contents are the vendor's to validate, and no translation reads them.
  // @see https://docs.anthropic.com/en/docs/build-with-claude/context-editing
  context_management: z.looseObject({}).nullish(),
  compaction: z.looseObject({}).nullish(),
  fallbacks: z.union([z.array(z.looseObject({})), z.literal('default')]).nullish(),
  fallback_credit_token: z.union([z.string(), z.looseObject({})]).nullish(),
  billing_policy: z.looseObject({}).nullish(),
  thread: z.looseObject({}).nullish(),
});

/** A validated client Messages body. */
export type AnthropicRequest = z.infer<typeof anthropicRequestSchema>;
/** One validated turn of `messages`. */
export type AnthropicMessageParam = AnthropicRequest['messages'][number];
/** One validated client tool. */
export type AnthropicToolParam = NonNullable<AnthropicRequest['tools']>[number];
/** A validated `tool_choice`. */
export type AnthropicToolChoiceParam = NonNullable<AnthropicRequest['tool_choice']>;

/** Every top-level field the gateway knows in a 2023-06-01 Messages body. */
export const ANTHROPIC_REQUEST_FIELDS: ReadonlySet<string> = new Set(
  Object.keys(anthropicRequestSchema.shape),
);

/** Top-level fields the schema allows to be null whose content no translation reads: kept for a Messages upstream. */
export const ANTHROPIC_NULLISH_PASS_THROUGH_FIELDS = [
  'container',
  'speed',
  'inference_geo',
  'diagnostics',
  'context_management',
  'compaction',
  'fallbacks',
  'fallback_credit_token',
  'billing_policy',
  'thread',
] as const;
