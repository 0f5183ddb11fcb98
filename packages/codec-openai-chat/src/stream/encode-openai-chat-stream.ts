import {
  assertNever,
  createId,
  streamEndedEarly,
  type EncodeContext,
  type FinishReason,
  type GatewayError,
  type JSONObject,
  type SSEMessage,
  type StreamEncoder,
  type StreamEvent,
  type Usage,
} from '@signalbox/core';
import { encodeOpenAIErrorObject } from '@signalbox/codec-openai-shared';
import { clientRequestedUsage } from '../openai-chat-options';
import { encodeOpenAIChatFinishReason } from '../openai-chat-finish-reason';
import { encodeOpenAIChatUsage } from '../openai-chat-usage';

type EncoderState = {
  phase: 'waiting' | 'streaming' | 'done';
  id: string;
  created: number;
  model: string;
  /** Whether the CLIENT asked for `stream_options.include_usage` (the upstream is always asked). */
  includeUsage: boolean;
  /**
   * Chat `tool_calls[].index` per IR block id, in call order. Clients merge argument fragments by
   * that index, so each call keeps one index for all its chunks.
   */
  toolCalls: Map<string, { index: number; sentArguments: boolean }>;
};

/**
 * IR events → the CLIENT's Chat SSE: data-only `chat.completion.chunk` frames with a stable id,
 * `created` and the client's model ID; a role chunk first, a `finish_reason` chunk before
 * `[DONE]` (clients take a stream without one as cut short), the usage-only chunk only if the
 * client asked. Reasoning has no Chat field and is dropped. An IR error ends the stream with
 * `data: {"error": …}` and no `[DONE]`.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export function createOpenAIChatStreamEncoder(context: EncodeContext): StreamEncoder {
  return new OpenAIChatStreamEncoder({
    phase: 'waiting',
    id: createId('chatcmpl-'),
    created: context.createdAt,
    model: context.request.model,
    includeUsage: clientRequestedUsage(context.request),
    toolCalls: new Map(),
  });
}

/** One object per stream, its methods shared by all. */
class OpenAIChatStreamEncoder implements StreamEncoder {
  constructor(private readonly state: EncoderState) {}

  push(event: StreamEvent): SSEMessage[] {
    const messages: SSEMessage[] = [];
    if (this.state.phase !== 'done') handleEvent(event, this.state, messages);
    return messages;
  }

  end(): SSEMessage[] {
    const messages: SSEMessage[] = [];
    if (this.state.phase === 'done') return messages;
    failStream(streamEndedEarly(), this.state, messages);
    return messages;
  }
}

function handleEvent(event: StreamEvent, state: EncoderState, messages: SSEMessage[]): void {
  switch (event.type) {
    case 'response-start':
      return ensureStarted(state, messages);
    case 'text-delta':
      if (event.delta !== '') pushChunk({ content: event.delta }, state, messages);
      return;
    case 'refusal-delta':
      if (event.delta !== '') pushChunk({ refusal: event.delta }, state, messages);
      return;
    case 'tool-call-start':
      return startToolCall(event, state, messages);
    case 'tool-call-delta':
      return forwardArguments(event.id, event.argumentsDelta, state, messages);
    case 'tool-call-end':
      return endToolCall(event, state, messages);
    case 'response-end':
      return finishStream(event.finishReason, event.usage, state, messages);
    case 'error':
      return failStream(event.error, state, messages);
    case 'text-start':
    case 'text-end':
    case 'refusal-start':
    case 'refusal-end':
    case 'reasoning-start':
    case 'reasoning-delta':
    case 'reasoning-end':
      return; // Chat has no block boundaries and no reasoning field.
    default:
      return assertNever(event, 'IR stream event');
  }
}

/** The first chunk of a choice must carry the role, or the SDK's stream helper rejects the stream. */
function ensureStarted(state: EncoderState, messages: SSEMessage[]): void {
  if (state.phase !== 'waiting') return;
  state.phase = 'streaming';
  messages.push(chunkMessage({ role: 'assistant', content: '' }, null, state));
}

function pushChunk(delta: JSONObject, state: EncoderState, messages: SSEMessage[]): void {
  ensureStarted(state, messages);
  messages.push(chunkMessage(delta, null, state));
}

function startToolCall(
  event: Extract<StreamEvent, { type: 'tool-call-start' }>,
  state: EncoderState,
  messages: SSEMessage[],
): void {
  const index = state.toolCalls.size;
  state.toolCalls.set(event.id, { index, sentArguments: false });
  const call = {
    index,
    id: event.callId,
    type: 'function',
    function: { name: event.toolName, arguments: '' },
  };
  pushChunk({ tool_calls: [call] }, state, messages);
}

function forwardArguments(
  blockId: string,
  argumentsDelta: string,
  state: EncoderState,
  messages: SSEMessage[],
): void {
  const call = state.toolCalls.get(blockId);
  if (!call || argumentsDelta === '') return;
  call.sentArguments = true;
  pushChunk(
    { tool_calls: [{ index: call.index, function: { arguments: argumentsDelta } }] },
    state,
    messages,
  );
}

function endToolCall(
  event: Extract<StreamEvent, { type: 'tool-call-end' }>,
  state: EncoderState,
  messages: SSEMessage[],
): void {
  const call = state.toolCalls.get(event.id);
  // Arguments that came only with the end (some upstreams send them there) go out as one fragment;
  // no arguments at all read as `{}`.
  if (call && !call.sentArguments) forwardArguments(event.id, event.arguments || '{}', state, messages);
}

function finishStream(
  finishReason: FinishReason,
  usage: Usage,
  state: EncoderState,
  messages: SSEMessage[],
): void {
  ensureStarted(state, messages);
  messages.push(
    chunkMessage({}, encodeOpenAIChatFinishReason(finishReason, state.toolCalls.size > 0), state),
  );
  if (state.includeUsage) {
    const usageChunk = {
      id: state.id,
      object: 'chat.completion.chunk',
      created: state.created,
      model: state.model,
      choices: [],
      usage: encodeOpenAIChatUsage(usage),
    };
    messages.push({ data: JSON.stringify(usageChunk) });
  }
  messages.push({ data: '[DONE]' });
  state.phase = 'done';
}

function failStream(error: GatewayError, state: EncoderState, messages: SSEMessage[]): void {
  messages.push({ data: JSON.stringify({ error: encodeOpenAIErrorObject(error) }) });
  state.phase = 'done';
}

function chunkMessage(delta: JSONObject, finishReason: string | null, state: EncoderState): SSEMessage {
  const chunk = {
    id: state.id,
    object: 'chat.completion.chunk',
    created: state.created,
    model: state.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(state.includeUsage && { usage: null }),
  };
  return { data: JSON.stringify(chunk) };
}
