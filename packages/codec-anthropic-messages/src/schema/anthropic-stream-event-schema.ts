import { z } from 'zod';
import { anthropicUsageSchema } from './anthropic-response-schema';

const index = z.number().int().nonnegative();

/** The fields of a started block the decoder reads, whatever its type (checked per type later). */
const contentBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  thinking: z.string().nullish(),
  signature: z.string().nullish(),
  data: z.string().nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  input: z.unknown().optional(),
});

const deltaSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  thinking: z.string().nullish(),
  partial_json: z.string().nullish(),
  signature: z.string().nullish(),
});

/**
 * The Messages stream events the decoder handles, holding only the fields it reads (lenient).
 * `error` is read separately, whatever its shape, so a failure is never lost to a schema mismatch.
 */
export const anthropicStreamEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message_start'),
    message: z.object({ id: z.string(), model: z.string().nullish(), usage: anthropicUsageSchema.nullish() }),
  }),
  z.object({ type: z.literal('content_block_start'), index, content_block: contentBlockSchema }),
  z.object({ type: z.literal('content_block_delta'), index, delta: deltaSchema }),
  z.object({ type: z.literal('content_block_stop'), index }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullish(), stop_sequence: z.string().nullish() }).nullish(),
    usage: anthropicUsageSchema.nullish(),
  }),
  z.object({ type: z.literal('message_stop') }),
  z.object({ type: z.literal('ping') }),
]);

/** One parsed upstream stream event (except `error`, read separately). */
export type AnthropicStreamEvent = z.infer<typeof anthropicStreamEventSchema>;

/** Event names the decoder knows; anything else is skipped (forward compatibility). */
export const ANTHROPIC_STREAM_EVENT_TYPES: ReadonlySet<string> = new Set([
  ...anthropicStreamEventSchema.options.map(option => option.shape.type.value),
  'error',
]);
