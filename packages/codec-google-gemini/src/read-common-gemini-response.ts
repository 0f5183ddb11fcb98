import { isJSONObject, isOptionalBoolean, isOptionalNumber, isOptionalString } from '@signalbox/core';
import type { GeminiResponse } from './gemini-api';

/**
 * The answer nearly every stream chunk (and most whole answers) is: text or thought parts, a finish
 * reason, usage, checked field by field and returned as is (the schema keeps unknown fields, so its
 * copy would be equal). `undefined` leaves the body to the schema, which takes everything else.
 */
export function readCommonGeminiResponse(value: unknown): GeminiResponse | undefined {
  if (
    !isJSONObject(value) ||
    value.promptFeedback !== undefined ||
    !isOptionalString(value.modelVersion) ||
    !isOptionalString(value.responseId) ||
    !isCommonUsage(value.usageMetadata)
  )
    return undefined;
  const candidates = value.candidates;
  if (candidates === undefined) return value as GeminiResponse;
  if (!Array.isArray(candidates)) return undefined;
  for (const candidate of candidates) if (!isCommonCandidate(candidate)) return undefined;
  return value as GeminiResponse;
}

function isCommonCandidate(candidate: unknown): boolean {
  if (
    !isJSONObject(candidate) ||
    !isOptionalString(candidate.finishReason) ||
    !isOptionalString(candidate.finishMessage) ||
    !isOptionalNumber(candidate.index)
  )
    return false;
  return candidate.content === undefined || isTextContent(candidate.content);
}

/** A `Content` of text and thought parts only, as `geminiContentSchema` takes it (and keeps it whole). */
export function isTextContent(content: unknown): boolean {
  if (!isJSONObject(content) || !isOptionalString(content.role)) return false;
  const parts = content.parts;
  if (parts === undefined) return true;
  if (!Array.isArray(parts)) return false;
  for (const part of parts) if (!isTextPart(part)) return false;
  return true;
}

// A text or thought part; a part with any other known field (calls, media, code) goes to the schema.
function isTextPart(part: unknown): boolean {
  return (
    isJSONObject(part) &&
    isOptionalString(part.text) &&
    isOptionalBoolean(part.thought) &&
    isOptionalString(part.thoughtSignature) &&
    part.inlineData === undefined &&
    part.fileData === undefined &&
    part.functionCall === undefined &&
    part.functionResponse === undefined &&
    part.executableCode === undefined &&
    part.codeExecutionResult === undefined
  );
}

function isCommonUsage(usage: unknown): boolean {
  return (
    usage === undefined ||
    (isJSONObject(usage) &&
      isOptionalNumber(usage.promptTokenCount) &&
      isOptionalNumber(usage.cachedContentTokenCount) &&
      isOptionalNumber(usage.candidatesTokenCount) &&
      isOptionalNumber(usage.toolUsePromptTokenCount) &&
      isOptionalNumber(usage.thoughtsTokenCount) &&
      isOptionalNumber(usage.totalTokenCount))
  );
}
