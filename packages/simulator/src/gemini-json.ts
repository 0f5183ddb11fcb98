import type { AnswerContext } from './answer-context';
import type { AnswerPlan } from './answer-plan';
import { assertNever } from './assert-never';
import { createId } from './create-id';
import { asRecord } from './read-text-content';
import { issueThoughtSignature } from './thought-signature';

/** One Gemini `Part` as the simulator writes it. */
export type GeminiPart = Record<string, unknown>;

/** Per-answer facts every chunk of a Gemini answer repeats: its `responseId`, and the signature it issues when it thought. */
export type GeminiAnswerIds = { responseId: string; signature: string | undefined };

/** A fresh `responseId`; a signature when the model thought (Gemini returns one on every thinking answer). */
export function createGeminiIds(context: AnswerContext): GeminiAnswerIds {
  const reasoning = context.plan.reasoning;
  return { responseId: createId('').slice(0, 22), signature: reasoning === undefined ? undefined : issueThoughtSignature(reasoning.signature) };
}

/**
 * `generateContent` body: one candidate with the answer's parts (thought summaries when
 * `includeThoughts`, text, function calls), its `finishReason`, and usage.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
export function encodeGeminiJson(context: AnswerContext): Record<string, unknown> {
  const ids = createGeminiIds(context);
  const parts = context.directedFinish === undefined ? geminiParts(context, ids) : [];
  const candidate: Record<string, unknown> = parts.length > 0 ? { content: { parts, role: 'model' } } : {};
  return {
    candidates: [{ ...candidate, finishReason: geminiFinishReason(context), index: 0 }],
    usageMetadata: geminiUsage(context, answered(context)),
    modelVersion: context.request.model,
    responseId: ids.responseId,
  };
}

/** The answer's parts in order; the signature rides on the first function call, else on the last part. */
export function geminiParts(context: AnswerContext, ids: GeminiAnswerIds): GeminiPart[] {
  const { plan } = context;
  const parts: GeminiPart[] = [];
  if (plan.reasoning !== undefined && showsThoughts(context)) parts.push({ text: plan.reasoning.text, thought: true });
  if (plan.textTokens.length > 0) parts.push({ text: plan.text });
  const calls: GeminiPart[] = plan.toolCalls.map(call => ({ functionCall: { id: call.idSuffix, name: call.name, args: call.input } }));
  parts.push(...calls);
  if (ids.signature !== undefined) {
    const carrier = calls[0] ?? parts.at(-1);
    if (carrier === undefined) parts.push({ text: '', thoughtSignature: ids.signature });
    else carrier.thoughtSignature = ids.signature;
  }
  return parts;
}

/** `generationConfig.thinkingConfig.includeThoughts`: thought summaries are returned as `thought: true` parts. */
export function showsThoughts(context: AnswerContext): boolean {
  const config = asRecord(context.request.body.generationConfig ?? context.request.body.generation_config);
  return asRecord(config?.thinkingConfig)?.includeThoughts === true;
}

/** Tokens produced so far, thoughts apart from the candidate's own (all of them once the answer is whole). */
export type GeminiOutputCount = { thoughts: number; candidates: number };

/** What the whole answer produced; a withheld answer produced nothing. */
export function answered(context: AnswerContext): GeminiOutputCount {
  if (context.directedFinish !== undefined) return { thoughts: 0, candidates: 0 };
  const { usage } = context.plan;
  return { thoughts: usage.reasoningTokens, candidates: usage.outputTokens - usage.reasoningTokens };
}

/**
 * `usageMetadata`: `promptTokenCount` includes `cachedContentTokenCount` (the implicitly cached
 * prefix); thoughts are counted apart from `candidatesTokenCount`, and the total adds them up.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export function geminiUsage(context: AnswerContext, output: GeminiOutputCount): Record<string, unknown> {
  const prompt = context.plan.usage.inputTokens;
  const cached = context.cache.readTokens;
  return {
    promptTokenCount: prompt,
    ...(output.candidates > 0 && { candidatesTokenCount: output.candidates }),
    totalTokenCount: prompt + output.candidates + output.thoughts,
    ...(cached > 0 && { cachedContentTokenCount: cached }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    ...(cached > 0 && { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }] }),
    ...(output.thoughts > 0 && { thoughtsTokenCount: output.thoughts }),
  };
}

/**
 * The plan's finish in Gemini words: function calls and stop sequences end with `STOP` too.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function geminiFinishReason(context: AnswerContext): string {
  if (context.directedFinish !== undefined) return context.directedFinish;
  const plan: AnswerPlan = context.plan;
  switch (plan.finish) {
    case 'stop':
    case 'tool-calls':
    case 'stop-sequence':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    default:
      return assertNever(plan.finish, 'answer finish');
  }
}
