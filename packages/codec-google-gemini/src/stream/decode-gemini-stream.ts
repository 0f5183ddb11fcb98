import { emptyUsage, GatewayError, isJSONObject, streamEndedEarly, type SSEMessage, type StreamDecoder, type StreamEvent, type Usage } from '@signalbox/core';
import { geminiResponseSchema, type GeminiPart } from '../gemini-api';
import { createGeminiBodyError, decodeGeminiError } from '../gemini-error-envelope';
import { decodeGeminiFinishReason } from '../gemini-finish-reason';
import { decodeGeminiUsage } from '../gemini-usage';
import { readCommonGeminiResponse } from '../read-common-gemini-response';
import { geminiCallId } from '../response/gemini-output-parts';

type Block = { kind: 'text' | 'reasoning'; id: string };
type DecoderState = {
  started: boolean;
  open: Block | undefined;
  /** A signature that came on text continuing the open text block: it follows that block. */
  textSignature: string | undefined;
  blocks: number;
  usage: Usage;
  finishReason: string | undefined;
  blockReason: string | undefined;
  sawToolCalls: boolean;
  done: boolean;
  responseId: string | undefined;
  calls: number;
};

/**
 * An upstream's `streamGenerateContent?alt=sse` → IR events. Each `data:` chunk is a whole
 * `GenerateContentResponse` carrying a delta: text and thoughts continue one block until another
 * kind of part comes, a function call arrives whole in one chunk, usage rides on the chunks. The
 * stream has no end marker: it is complete when the body ends after a chunk with a `finishReason`.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export function createGeminiStreamDecoder(): StreamDecoder {
  const state: DecoderState = { started: false, open: undefined, textSignature: undefined, blocks: 0, usage: emptyUsage(), finishReason: undefined, blockReason: undefined, sawToolCalls: false, done: false, responseId: undefined, calls: 0 };
  return {
    push(message) {
      if (state.done) return [];
      const events: StreamEvent[] = [];
      decodeChunk(message, state, events);
      return events;
    },
    end() {
      if (state.done) return [];
      const events: StreamEvent[] = [];
      closeBlock(state, events);
      state.done = true;
      if (state.finishReason === undefined && state.blockReason === undefined) return [...events, { type: 'error', error: streamEndedEarly() }];
      const finishReason = state.blockReason
        ? { unified: 'content-filter' as const, raw: state.blockReason }
        : decodeGeminiFinishReason(state.finishReason, state.sawToolCalls);
      events.push({ type: 'response-end', finishReason, usage: state.usage });
      return events;
    },
  };
}

function decodeChunk(message: SSEMessage, state: DecoderState, events: StreamEvent[]): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.data);
  } catch {
    return fail(state, events, new GatewayError({ code: 'UPSTREAM_FAILED', message: 'The upstream sent a stream chunk that is not JSON.' }));
  }
  if (isJSONObject(parsed) && isJSONObject(parsed.error)) return fail(state, events, createGeminiBodyError(decodeGeminiError(parsed)));
  const chunk = readCommonGeminiResponse(parsed) ?? geminiResponseSchema.safeParse(parsed).data;
  if (chunk === undefined) return fail(state, events, new GatewayError({ code: 'UPSTREAM_FAILED', message: 'The upstream sent a stream chunk that is not a Gemini response.' }));
  if (!state.started) {
    state.started = true;
    state.responseId = chunk.responseId;
    events.push({ type: 'response-start', id: chunk.responseId ?? '', model: chunk.modelVersion ?? '' });
  }
  const candidate = chunk.candidates?.[0];
  for (const part of candidate?.content?.parts ?? []) decodePart(part, state, events);
  if (chunk.usageMetadata) state.usage = decodeGeminiUsage(chunk.usageMetadata);
  if (candidate?.finishReason !== undefined) state.finishReason = candidate.finishReason;
  if (chunk.promptFeedback?.blockReason !== undefined) state.blockReason = chunk.promptFeedback.blockReason;
}

function decodePart(part: GeminiPart, state: DecoderState, events: StreamEvent[]): void {
  const signature = part.thoughtSignature;
  if (part.thought === true) {
    const id = openBlock('reasoning', state, events);
    if (part.text) events.push({ type: 'reasoning-delta', id, delta: part.text });
    if (signature !== undefined) closeBlock(state, events, signature);
    return;
  }
  if (signature !== undefined && part.text && state.open?.kind === 'text') {
    // On text that continues the answer (Gemini signs its last chunk): after the text, not splitting it.
    state.textSignature = signature;
  } else if (signature !== undefined) {
    // A signature on a call or on text that starts a block: an empty signed reasoning block just before it.
    closeBlock(state, events);
    const id = openBlock('reasoning', state, events);
    events.push({ type: 'reasoning-end', id, signature });
    state.open = undefined;
  }
  if (part.functionCall) {
    closeBlock(state, events);
    const { id: callId, name, args } = part.functionCall;
    const id = `b${state.blocks++}`;
    state.sawToolCalls = true;
    events.push({ type: 'tool-call-start', id, callId: callId ?? geminiCallId(state.responseId, state.calls++), toolName: name }, { type: 'tool-call-end', id, arguments: JSON.stringify(args ?? {}) });
  } else if (part.text) {
    const id = openBlock('text', state, events);
    events.push({ type: 'text-delta', id, delta: part.text });
  }
}

/** The open block of `kind`, opened now (closing another kind's) when it is not the open one. */
function openBlock(kind: Block['kind'], state: DecoderState, events: StreamEvent[]): string {
  if (state.open?.kind === kind) return state.open.id;
  closeBlock(state, events);
  const id = `b${state.blocks++}`;
  state.open = { kind, id };
  events.push(kind === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id });
  return id;
}

function closeBlock(state: DecoderState, events: StreamEvent[], signature?: string): void {
  const { open } = state;
  if (!open) return;
  state.open = undefined;
  if (open.kind === 'reasoning') return void events.push({ type: 'reasoning-end', id: open.id, ...(signature !== undefined && { signature }) });
  events.push({ type: 'text-end', id: open.id });
  const textSignature = state.textSignature;
  if (textSignature === undefined) return;
  state.textSignature = undefined;
  const id = `b${state.blocks++}`;
  events.push({ type: 'reasoning-start', id }, { type: 'reasoning-end', id, signature: textSignature });
}

function fail(state: DecoderState, events: StreamEvent[], error: GatewayError): void {
  state.done = true;
  events.push({ type: 'error', error });
}
