import { createId, type OutputPart } from '@signalbox/core';
import type { GeminiPart } from '../gemini-api';

/**
 * A candidate's parts → IR output parts: thoughts as reasoning (with their signature), a signature
 * on any other part as an empty reasoning part just before it (so it replays on the same part),
 * function calls with their `id` or one made here. Code execution parts are Gemini's own: skipped.
 */
export function decodeGeminiOutputParts(parts: readonly GeminiPart[], responseId: string | undefined): OutputPart[] {
  const output: OutputPart[] = [];
  let calls = 0;
  for (const part of parts) {
    const signature = part.thoughtSignature;
    if (part.thought === true) {
      output.push({ type: 'reasoning', text: part.text ?? '', ...(signature !== undefined && { signature }) });
      continue;
    }
    if (signature !== undefined) output.push({ type: 'reasoning', text: '', signature });
    if (part.functionCall) {
      const { id, name, args } = part.functionCall;
      output.push({ type: 'tool-call', callId: id ?? geminiCallId(responseId, calls++), name, arguments: JSON.stringify(args ?? {}) });
    } else if (part.text !== undefined && part.text !== '') output.push({ type: 'text', text: part.text });
  }
  return output;
}

/**
 * IR output parts → a Gemini client's parts. Reasoning text is a thought part only for a client that
 * asked for thoughts (`includeThoughts`), else left out with its signature; a signature without
 * text (Gemini's own) always goes back, on the part that follows.
 */
export function encodeGeminiOutputParts(content: readonly OutputPart[], includeThoughts: boolean): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  let signature: string | undefined;
  const take = (): { thoughtSignature?: string } => {
    const pending = signature;
    signature = undefined;
    return pending === undefined ? {} : { thoughtSignature: pending };
  };
  for (const part of content) {
    switch (part.type) {
      case 'reasoning':
        // Reasoning text a client did not ask to see goes with its signature: that proves the text.
        if (part.text === '') signature = part.signature ?? signature;
        else if (includeThoughts) parts.push({ text: part.text, thought: true, ...(part.signature !== undefined && { thoughtSignature: part.signature }) });
        break;
      case 'tool-call':
        parts.push({ functionCall: { id: part.callId, name: part.name, args: parseArguments(part.arguments) }, ...take() });
        break;
      case 'text':
      case 'refusal':
        parts.push({ text: part.text, ...take() });
        break;
    }
  }
  if (signature !== undefined) parts.push({ text: '', ...take() });
  return parts;
}

/**
 * The id of a call Gemini sent without one: made of the response's id and the call's place, so
 * every reading of one answer gives the same ids; random when the response has no usable id.
 */
export function geminiCallId(responseId: string | undefined, index: number): string {
  return responseId !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(responseId) ? `call_${responseId}_${index}` : createId('call_');
}

/** A call's arguments as the object Gemini sends (`{}` for none). */
export function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    return { value: text };
  }
}
