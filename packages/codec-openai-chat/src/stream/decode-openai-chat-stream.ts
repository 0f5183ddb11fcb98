import {
  createId,
  emptyUsage,
  GatewayError,
  isJSONObject,
  streamEndedEarly,
  type JSONObject,
  type SSEMessage,
  type StreamDecoder,
  type StreamEvent,
  type Usage,
} from '@signalbox/core';
import { createOpenAIBodyError, decodeOpenAIError } from '@signalbox/codec-openai-shared';
import {
  openAIChatChunkSchema,
  type OpenAIChatChunk,
  type OpenAIChatToolCallDelta,
} from '../openai-chat-api';
import { decodeOpenAIChatFinishReason } from '../openai-chat-finish-reason';
import { decodeOpenAIChatUsage } from '../openai-chat-usage';
import { closeBlock, openBlock, type OpenBlock } from './openai-chat-stream-blocks';
import { readCommonChatChunk } from './read-common-chat-chunk';

type Choice = NonNullable<OpenAIChatChunk['choices']>[number];
type Delta = NonNullable<Choice['delta']>;

type DecoderState = {
  phase: 'waiting' | 'streaming' | 'done';
  /** At most one block is open: Chat streams one thing at a time, and the IR stays sequential. */
  open: OpenBlock | undefined;
  blockCount: number;
  /** Tool calls seen so far, by Chat `tool_calls[].index`. */
  toolCalls: Map<number, { id: string; callId: string }>;
  finishReason: string | undefined;
  /** True after a `finish_reason` or the usage-only chunk: the answer is complete even without `[DONE]`. */
  complete: boolean;
  usage: Usage;
};

/**
 * UPSTREAM Chat chunks → IR events. Data-only frames; `[DONE]` is the terminal, so the trailing
 * usage-only chunk (`choices: []`) is included in `response-end`. A stream cut before `[DONE]`
 * still ends cleanly if a `finish_reason` or the usage chunk was seen (many compatible servers
 * omit `[DONE]`); otherwise `end()` reports an error.
 */
export function createOpenAIChatStreamDecoder(): StreamDecoder {
  return new OpenAIChatStreamDecoder();
}

/** One object per stream, its methods shared by all. */
class OpenAIChatStreamDecoder implements StreamDecoder {
  private readonly state: DecoderState = {
    phase: 'waiting',
    open: undefined,
    blockCount: 0,
    toolCalls: new Map(),
    finishReason: undefined,
    complete: false,
    usage: emptyUsage(),
  };

  push(message: SSEMessage): StreamEvent[] {
    const events: StreamEvent[] = [];
    if (this.state.phase !== 'done') handleMessage(message, this.state, events);
    return events;
  }

  end(): StreamEvent[] {
    const events: StreamEvent[] = [];
    if (this.state.phase === 'done') return events;
    if (this.state.complete) finish(this.state, events);
    else fail(this.state, events, streamEndedEarly());
    return events;
  }
}

function handleMessage(message: SSEMessage, state: DecoderState, events: StreamEvent[]): void {
  const data = message.data;
  if (data === '') return;
  if (data.startsWith('[DONE]')) return handleDone(state, events);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return fail(state, events, malformedStream('The upstream sent a stream chunk that is not JSON.'));
  }
  if (isJSONObject(parsed) && (parsed.error || message.event === 'error'))
    return handleUpstreamError(parsed, state, events);
  const common = readCommonChatChunk(parsed);
  if (common) return handleChunk(common, state, events);
  const chunk = openAIChatChunkSchema.safeParse(parsed);
  if (!chunk.success)
    return fail(state, events, malformedStream('The upstream sent a malformed Chat Completions chunk.'));
  handleChunk(chunk.data, state, events);
}

function handleDone(state: DecoderState, events: StreamEvent[]): void {
  if (state.phase === 'waiting')
    return fail(state, events, malformedStream('The upstream stream ended without sending any chunk.'));
  finish(state, events);
}

function handleUpstreamError(body: JSONObject, state: DecoderState, events: StreamEvent[]): void {
  // Some OpenAI-compatible servers send the error as a bare string: `{"error": "…"}`.
  const details = typeof body.error === 'string' ? { message: body.error } : decodeOpenAIError(body);
  events.push({ type: 'error', error: createOpenAIBodyError(details) });
  state.phase = 'done';
}

function handleChunk(chunk: OpenAIChatChunk, state: DecoderState, events: StreamEvent[]): void {
  const choices = chunk.choices ?? [];
  // Azure opens with a `prompt_filter_results` chunk that has no choices, no usage and an empty id.
  if (choices.length === 0 && !chunk.usage) return;
  if (state.phase === 'waiting') {
    events.push({ type: 'response-start', id: chunk.id ?? '', model: chunk.model ?? '' });
    state.phase = 'streaming';
  }
  if (chunk.usage) state.usage = decodeOpenAIChatUsage(chunk.usage);
  // The usage-only chunk (`choices: []`) comes last, so choices[0] may be missing: never index it unguarded.
  if (choices.length === 0) state.complete = true;
  const choice = choices.find(isFirstChoice);
  if (!choice) return;
  if (choice.delta) handleDelta(choice.delta, state, events);
  if (state.phase === 'streaming' && choice.finish_reason) {
    closeOpenBlock(state, events);
    state.finishReason = choice.finish_reason;
    state.complete = true;
  }
}

/** The choice a single-answer stream streams; a function made once, not a closure per chunk. */
const isFirstChoice = (choice: Choice): boolean => (choice.index ?? 0) === 0;

function handleDelta(delta: Delta, state: DecoderState, events: StreamEvent[]): void {
  // vLLM / DeepSeek / Ollama stream reasoning as `reasoning_content` (newer vLLM: `reasoning`).
  const reasoning = delta.reasoning_content ?? delta.reasoning;
  if (reasoning) appendContent('reasoning', reasoning, state, events);
  if (delta.content) appendContent('text', delta.content, state, events);
  if (delta.refusal) appendContent('refusal', delta.refusal, state, events);
  // `tool_calls: []` (Ollama, vLLM) iterates nothing, so it is treated as absent, not as a call.
  delta.tool_calls?.forEach((call, position) => {
    if (state.phase === 'streaming') handleToolCallDelta(call, position, state, events);
  });
}

function appendContent(
  kind: 'text' | 'reasoning' | 'refusal',
  delta: string,
  state: DecoderState,
  events: StreamEvent[],
): void {
  if (state.open?.kind !== kind) {
    closeOpenBlock(state, events);
    state.open = openBlock({ kind, id: `${kind}-${state.blockCount++}` }, events);
  }
  const id = state.open.id;
  if (kind === 'text') events.push({ type: 'text-delta', id, delta });
  else if (kind === 'reasoning') events.push({ type: 'reasoning-delta', id, delta });
  else events.push({ type: 'refusal-delta', id, delta });
}

function handleToolCallDelta(
  call: OpenAIChatToolCallDelta,
  position: number,
  state: DecoderState,
  events: StreamEvent[],
): void {
  const index = call.index ?? position;
  const known = state.toolCalls.get(index);
  // Some servers repeat the id on every fragment; only a different id at a known index is a new call.
  const startsCall = known === undefined || (!!call.id && call.id !== known.callId);
  let toolCall = known;
  if (startsCall) {
    closeOpenBlock(state, events);
    toolCall = {
      id: known ? `tool-${index}-${state.blockCount++}` : `tool-${index}`,
      callId: call.id || createId('call_'),
    };
    state.toolCalls.set(index, toolCall);
    state.open = openBlock(
      { kind: 'tool-call', id: toolCall.id, callId: toolCall.callId, toolName: call.function?.name ?? '' },
      events,
    );
  } else if (state.open?.id !== toolCall?.id) {
    return fail(
      state,
      events,
      malformedStream('The upstream sent arguments for a tool call after it had moved on to other output.'),
    );
  }
  const argumentsDelta = call.function?.arguments;
  if (toolCall && argumentsDelta) events.push({ type: 'tool-call-delta', id: toolCall.id, argumentsDelta });
}

function closeOpenBlock(state: DecoderState, events: StreamEvent[]): void {
  if (state.open) closeBlock(state.open, events);
  state.open = undefined;
}

function finish(state: DecoderState, events: StreamEvent[]): void {
  closeOpenBlock(state, events);
  events.push({
    type: 'response-end',
    finishReason: decodeOpenAIChatFinishReason(state.finishReason, state.toolCalls.size > 0),
    usage: state.usage,
  });
  state.phase = 'done';
}

function fail(state: DecoderState, events: StreamEvent[], error: GatewayError): void {
  events.push({ type: 'error', error });
  state.phase = 'done';
}

/** An upstream stream the decoder cannot read as Chat Completions chunks. */
function malformedStream(message: string): GatewayError {
  return new GatewayError({ code: 'UPSTREAM_FAILED', message });
}
