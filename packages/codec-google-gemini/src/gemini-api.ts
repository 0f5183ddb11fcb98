import { z } from 'zod';

/**
 * The parts of Gemini's wire shapes the codec reads, for requests and answers alike. Objects are
 * loose: a field Google adds later is no reason to refuse a body.
 * @see https://ai.google.dev/api/caching#Content
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
const jsonObject = z.record(z.string(), z.unknown());

export const geminiPartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).optional(),
  fileData: z.looseObject({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
  functionCall: z.looseObject({ id: z.string().optional(), name: z.string(), args: jsonObject.optional() }).optional(),
  functionResponse: z.looseObject({ id: z.string().optional(), name: z.string(), response: jsonObject.optional() }).optional(),
  executableCode: jsonObject.optional(),
  codeExecutionResult: jsonObject.optional(),
});
export type GeminiPart = z.infer<typeof geminiPartSchema>;

export const geminiContentSchema = z.looseObject({
  role: z.string().optional(),
  parts: z.array(geminiPartSchema).optional(),
});
export type GeminiContent = z.infer<typeof geminiContentSchema>;

export const geminiUsageSchema = z.looseObject({
  promptTokenCount: z.number().optional(),
  cachedContentTokenCount: z.number().optional(),
  candidatesTokenCount: z.number().optional(),
  toolUsePromptTokenCount: z.number().optional(),
  thoughtsTokenCount: z.number().optional(),
  totalTokenCount: z.number().optional(),
});
export type GeminiUsage = z.infer<typeof geminiUsageSchema>;

export const geminiResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: geminiContentSchema.optional(),
        finishReason: z.string().optional(),
        finishMessage: z.string().optional(),
        index: z.number().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  usageMetadata: geminiUsageSchema.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
});
export type GeminiResponse = z.infer<typeof geminiResponseSchema>;
