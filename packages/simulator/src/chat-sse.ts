import type { AnswerContext } from './answer-context';
import type { PlannedToolCall } from './answer-plan';
import { buildChatUsage, chatFinishReason, createChatIds, SIMULATOR_FINGERPRINT, type ChatIds } from './chat-json';
import { dataFrame, type SimulatedStream, type SSEFrame, type SSEFrameKind } from './sse-frame';

type StreamState = { context: AnswerContext; ids: ChatIds; includeUsage: boolean };

/**
 * `POST /v1/chat/completions` with `stream: true`: data-only chunks (role first, content deltas,
 * tool-call fragments, finish chunk), the usage-only chunk when `stream_options.include_usage`,
 * then `data: [DONE]`.
 */
export function createChatStream(context: AnswerContext): SimulatedStream {
  const state: StreamState = { context, ids: createChatIds(context.plan), includeUsage: context.request.includeStreamUsage };
  return { frames: chatFrames(state), errorFrame: chatErrorFrame };
}

function* chatFrames(state: StreamState): Generator<SSEFrame> {
  const { plan } = state.context;
  yield choiceChunk(state, 'setup', { role: 'assistant', content: '', refusal: null }, null);
  for (const token of plan.textTokens) yield choiceChunk(state, 'token', { content: token }, null);
  for (const [index, call] of plan.toolCalls.entries()) yield* toolCallChunks(state, call, index);
  yield choiceChunk(state, 'terminal', {}, chatFinishReason(plan));
  if (state.includeUsage) yield chunk(state, 'terminal', [], buildChatUsage(state.context));
  yield dataFrame('terminal', '[DONE]');
}

function* toolCallChunks(state: StreamState, call: PlannedToolCall, index: number) {
  const opening = { index, id: state.ids.calls[index], type: 'function', function: { name: call.name, arguments: '' } };
  yield choiceChunk(state, 'setup', { tool_calls: [opening] }, null);
  for (const fragment of call.argumentFragments) {
    yield choiceChunk(state, 'token', { tool_calls: [{ index, function: { arguments: fragment } }] }, null);
  }
}

function choiceChunk(state: StreamState, kind: SSEFrameKind, delta: Record<string, unknown>, finishReason: string | null) {
  return chunk(state, kind, [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], null);
}

/** One `chat.completion.chunk`; `usage` is present (null until the last chunk) only when asked for. */
function chunk(state: StreamState, kind: SSEFrameKind, choices: unknown[], usage: unknown): SSEFrame {
  const data: Record<string, unknown> = {
    id: state.ids.completion,
    object: 'chat.completion.chunk',
    created: state.context.createdAt,
    model: state.context.request.model,
    service_tier: 'default',
    system_fingerprint: SIMULATOR_FINGERPRINT,
    choices,
  };
  if (state.includeUsage) data.usage = usage;
  return dataFrame(kind, data);
}

/** The Chat in-stream error: a data-only chunk whose top-level key is `error`. */
function chatErrorFrame(): string {
  const error = { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null };
  return dataFrame('terminal', { error }).text;
}
