import { z } from 'zod';
import { geminiContentSchema } from '../gemini-api';

const jsonObject = z.record(z.string(), z.unknown());

const functionDeclarationSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: jsonObject.optional(),
  parametersJsonSchema: jsonObject.optional(),
});

/** One `tools` entry: function declarations, or one of Gemini's built-in tools (kept for a Gemini upstream). */
const toolSchema = z.looseObject({ functionDeclarations: z.array(functionDeclarationSchema).optional() });

const thinkingConfigSchema = z.looseObject({
  includeThoughts: z.boolean().optional(),
  thinkingBudget: z.number().int().optional(),
  thinkingLevel: z.string().optional(),
});

export const geminiGenerationConfigSchema = z.looseObject({
  stopSequences: z.array(z.string()).optional(),
  responseMimeType: z.string().optional(),
  responseSchema: jsonObject.optional(),
  responseJsonSchema: jsonObject.optional(),
  candidateCount: z.number().int().min(1).optional(),
  maxOutputTokens: z.number().int().min(1).optional(),
  temperature: z.number().min(0).optional(),
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().int().optional(),
  thinkingConfig: thinkingConfigSchema.optional(),
});

/**
 * A client's `generateContent` body (`GenerateContentRequest`). Unknown top-level fields are
 * refused, as Google refuses them ("Unknown name"); `model` may come in the body too (`models/x`).
 * @see https://ai.google.dev/api/generate-content#request-body
 */
export const geminiRequestSchema = z.strictObject({
  model: z.string().optional(),
  contents: z.array(geminiContentSchema),
  systemInstruction: geminiContentSchema.optional(),
  tools: z.array(toolSchema).optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({ mode: z.string().optional(), allowedFunctionNames: z.array(z.string()).optional() })
        .optional(),
    })
    .optional(),
  safetySettings: z.array(jsonObject).optional(),
  generationConfig: geminiGenerationConfigSchema.optional(),
  cachedContent: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
});
export type GeminiRequest = z.infer<typeof geminiRequestSchema>;
export type GeminiGenerationConfig = z.infer<typeof geminiGenerationConfigSchema>;
export type GeminiTool = z.infer<typeof toolSchema>;
