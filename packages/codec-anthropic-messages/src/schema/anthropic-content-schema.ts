import { quoteClientName } from '@signalbox/core';
import { z } from 'zod';

/** The only image media types the Messages API accepts inline. */
export const ANTHROPIC_IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/**
 * Block types that belong to server-side tools (or have no IR slot). They are recognised so the
 * refusal names them as unsupported instead of unknown.
 */
export const UNSUPPORTED_BLOCK_TYPES = [
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
  'search_result',
  'tool_reference',
  'browser_state',
] as const;

/** `cache_control` as the request may carry it (a caching hint; the codec never acts on it). */
export const anthropicCacheControlSchema = z
  .object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() })
  .nullish();

/** A block no branch takes: its type named when it is a type name, never the text put there instead. */
function unknownBlockTypeError(issue: { code: string; input?: unknown }): string | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const type = (issue.input as { type?: unknown } | undefined)?.type;
  if (type === undefined) return 'Field required';
  return `Unknown content block type ${quoteClientName(type, '(not a type name)')}`;
}

/** A text block; the API rejects empty ones. */
export const anthropicTextBlockSchema = z.object({
  type: z.literal('text'),
  text: z.string().min(1, 'Text content blocks must be non-empty'),
  cache_control: anthropicCacheControlSchema,
  citations: z.array(z.unknown()).nullish(),
});

const imageSourceSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('base64'),
    media_type: z.enum(ANTHROPIC_IMAGE_MEDIA_TYPES),
    data: z.string().min(1),
  }),
  z.object({ type: z.literal('url'), url: z.string().min(1) }),
  z.object({ type: z.literal('file'), file_id: z.string() }),
]);

const imageBlockSchema = z.object({
  type: z.literal('image'),
  source: imageSourceSchema,
  cache_control: anthropicCacheControlSchema,
});

const documentSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string().min(1) }),
  z.object({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
  z.object({ type: z.literal('url'), url: z.string().min(1) }),
  z.object({ type: z.literal('content'), content: z.unknown() }),
  z.object({ type: z.literal('file'), file_id: z.string() }),
]);

const documentBlockSchema = z.object({
  type: z.literal('document'),
  source: documentSourceSchema,
  title: z.string().nullish(),
  context: z.string().nullish(),
  citations: z.looseObject({ enabled: z.boolean().optional() }).nullish(),
  cache_control: anthropicCacheControlSchema,
});

const unsupportedBlockSchema = z.looseObject({ type: z.enum(UNSUPPORTED_BLOCK_TYPES) });

const toolResultContentBlockSchema = z.discriminatedUnion(
  'type',
  [anthropicTextBlockSchema, imageBlockSchema, documentBlockSchema, unsupportedBlockSchema],
  { error: unknownBlockTypeError },
);

const toolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(toolResultContentBlockSchema)]).optional(),
  is_error: z.boolean().optional(),
  cache_control: anthropicCacheControlSchema,
});

const toolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string().regex(/^[a-zA-Z0-9_-]+$/, "String should match pattern '^[a-zA-Z0-9_-]+$'"),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  cache_control: anthropicCacheControlSchema,
});

const thinkingBlockSchema = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string(),
});

const redactedThinkingBlockSchema = z.object({ type: z.literal('redacted_thinking'), data: z.string() });

/** Every input content block the codec understands, plus the recognised-but-refused ones. */
export const anthropicContentBlockSchema = z.discriminatedUnion(
  'type',
  [
    anthropicTextBlockSchema,
    imageBlockSchema,
    documentBlockSchema,
    toolUseBlockSchema,
    toolResultBlockSchema,
    thinkingBlockSchema,
    redactedThinkingBlockSchema,
    unsupportedBlockSchema,
  ],
  { error: unknownBlockTypeError },
);

/** A validated input content block (wire shape). */
export type AnthropicContentBlockParam = z.infer<typeof anthropicContentBlockSchema>;
/** A validated `image` block. */
export type AnthropicImageBlockParam = z.infer<typeof imageBlockSchema>;
/** A validated `document` block. */
export type AnthropicDocumentBlockParam = z.infer<typeof documentBlockSchema>;
/** A recognised block type the gateway refuses. */
export type AnthropicUnsupportedBlockParam = z.infer<typeof unsupportedBlockSchema>;

const unsupportedBlockTypes: ReadonlySet<string> = new Set(UNSUPPORTED_BLOCK_TYPES);

/** True for the recognised block types the gateway refuses (server tools and friends). */
export function isUnsupportedBlock<T extends { type: string }>(
  block: T | AnthropicUnsupportedBlockParam,
): block is AnthropicUnsupportedBlockParam {
  return unsupportedBlockTypes.has(block.type);
}
/** A validated `tool_result` block. */
export type AnthropicToolResultBlockParam = z.infer<typeof toolResultBlockSchema>;
