import { z } from 'zod';

/** Usage counters as an upstream reports them; every field optional and nullable (lenient). */
export const anthropicUsageSchema = z.object({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  /** Cache writes by lifetime; their sum is `cache_creation_input_tokens`. */
  cache_creation: z
    .object({ ephemeral_5m_input_tokens: z.number().nullish(), ephemeral_1h_input_tokens: z.number().nullish() })
    .nullish(),
  output_tokens_details: z.object({ thinking_tokens: z.number().nullish() }).nullish(),
});

/** The output blocks the codec reads; others (server-tool results, future types) are skipped. */
export const anthropicOutputBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().nullish() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
]);

/** One output block the codec reads from an upstream Message. */
export type AnthropicOutputBlock = z.infer<typeof anthropicOutputBlockSchema>;

/** The block types `anthropicOutputBlockSchema` covers. */
export const ANTHROPIC_OUTPUT_BLOCK_TYPES: ReadonlySet<string> = new Set(
  anthropicOutputBlockSchema.options.map(option => option.shape.type.value),
);

/** An upstream's non-streaming Message: minimal and lenient (unknown fields ignored). */
export const anthropicResponseSchema = z.object({
  id: z.string(),
  type: z.literal('message').optional(),
  model: z.string().nullish(),
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  usage: anthropicUsageSchema.nullish(),
});
