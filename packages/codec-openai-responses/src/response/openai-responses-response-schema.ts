import { z } from 'zod';

/**
 * An upstream's non-streaming Response, minimal and lenient: only what the IR needs, `.nullish()`
 * on everything optional, unknown members ignored. Output items are checked per type afterwards.
 */
export const openAIResponsesResponseSchema = z.object({
  id: z.string(),
  model: z.string().nullish(),
  status: z.string().nullish(),
  output: z.array(z.looseObject({ type: z.string() })),
  error: z
    .looseObject({
      code: z.string().nullish(),
      message: z.string().nullish(),
      type: z.string().nullish(),
      param: z.string().nullish(),
    })
    .nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  usage: z.unknown().optional(),
});

/** A `message` output item: only its `output_text` / `refusal` parts are read. */
export const messageOutputItemSchema = z.object({
  content: z
    .array(z.looseObject({ type: z.string(), text: z.string().nullish(), refusal: z.string().nullish() }))
    .nullish(),
});

/** A `function_call` output item. */
export const functionCallOutputItemSchema = z.object({
  call_id: z.string(),
  name: z.string(),
  arguments: z.string().nullish(),
  /** Set when the function belongs to a `namespace` tool. */
  namespace: z.string().nullish(),
});

/** A `reasoning` output item: summary and raw text, plus OpenAI's opaque `encrypted_content`. */
export const reasoningOutputItemSchema = z.object({
  summary: z.array(z.looseObject({ text: z.string() })).nullish(),
  content: z.array(z.looseObject({ text: z.string() })).nullish(),
  encrypted_content: z.string().nullish(),
});
