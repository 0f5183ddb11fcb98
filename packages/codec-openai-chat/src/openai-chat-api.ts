import { z } from 'zod';

/**
 * Minimal, lenient schemas for what a Chat Completions UPSTREAM sends (JSON answers and stream
 * chunks): only the fields the codec reads, every optional one `.nullish()`, unknown fields ignored.
 * The client-side request schema is strict and lives in `request/openai-chat-request-schema.ts`.
 */
export const openAIChatUsageSchema = z.object({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  prompt_tokens_details: z
    .object({ cached_tokens: z.number().nullish(), cache_write_tokens: z.number().nullish() })
    .nullish(),
  completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
  // DeepSeek reports cache hits under its own name instead of prompt_tokens_details.cached_tokens.
  prompt_cache_hit_tokens: z.number().nullish(),
});

const toolCallSchema = z.object({
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** An upstream's non-streaming answer. */
export const openAIChatResponseSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z.array(
    z.object({
      index: z.number().nullish(),
      message: z.object({
        content: z.string().nullish(),
        // vLLM / DeepSeek / Ollama put reasoning text here (newer vLLM and OpenRouter say `reasoning`).
        reasoning_content: z.string().nullish(),
        reasoning: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z.array(toolCallSchema).nullish(),
      }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: openAIChatUsageSchema.nullish(),
});

const toolCallDeltaSchema = z.object({
  index: z.number().nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** One `data:` chunk of an upstream stream. */
export const openAIChatChunkSchema = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        index: z.number().nullish(),
        delta: z
          .object({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z.array(toolCallDeltaSchema).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: openAIChatUsageSchema.nullish(),
});

/** An upstream `usage` object, as far as the codec reads it. */
export type OpenAIChatUsage = z.infer<typeof openAIChatUsageSchema>;
/** An upstream JSON answer, as far as the codec reads it. */
export type OpenAIChatResponse = z.infer<typeof openAIChatResponseSchema>;
/** An upstream stream chunk, as far as the codec reads it. */
export type OpenAIChatChunk = z.infer<typeof openAIChatChunkSchema>;
/** One `delta.tool_calls[]` fragment of an upstream chunk. */
export type OpenAIChatToolCallDelta = z.infer<typeof toolCallDeltaSchema>;
