import { assertNever, type FinishReason, type UnifiedFinishReason } from '@signalbox/core';

/** The reasons that say a filter stopped the answer (text, images, recitation, personal data). */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * A candidate's `finishReason` → IR. Gemini says `STOP` after function calls too, so calls make it
 * `tool-calls`; a blocked prompt (`promptFeedback.blockReason`, no candidate) reads as a filter.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function decodeGeminiFinishReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  return { unified: unifiedOf(raw, hasToolCalls), raw };
}

function unifiedOf(raw: string | undefined, hasToolCalls: boolean): UnifiedFinishReason {
  if (raw === 'MAX_TOKENS') return 'length';
  if (raw !== undefined && FILTERED.has(raw)) return 'content-filter';
  if (hasToolCalls) return 'tool-calls';
  if (raw === 'STOP' || raw === undefined) return 'stop';
  // MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, LANGUAGE, OTHER…: finished, for a reason of Gemini's own.
  return 'other';
}

/**
 * IR → the `finishReason` a Gemini client gets: `STOP` after calls as Gemini says it, `MAX_TOKENS`,
 * `SAFETY` for any filter, and the upstream's own word when it is one of Gemini's.
 */
export function encodeGeminiFinishReason(finishReason: FinishReason): string {
  switch (finishReason.unified) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return finishReason.raw !== undefined && FILTERED.has(finishReason.raw) ? finishReason.raw : 'SAFETY';
    case 'error':
    case 'other':
      return finishReason.raw !== undefined && /^[A-Z_]+$/.test(finishReason.raw) ? finishReason.raw : 'OTHER';
    default:
      return assertNever(finishReason.unified, 'finish reason');
  }
}
