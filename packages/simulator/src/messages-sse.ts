import type { AnswerContext } from './answer-context';
import type { PlannedReasoning, PlannedToolCall } from './answer-plan';
import { buildMessagesUsage, createMessagesIds, messageHead, messagesStopReason, thinkingDetails, type MessagesIds } from './messages-json';
import { namedFrame, type SimulatedStream, type SSEFrame } from './sse-frame';

type StreamState = { context: AnswerContext; ids: MessagesIds; index: number };

/**
 * `POST /v1/messages` with `stream: true`: message_start, blocks (start, ping after the first,
 * deltas, stop), message_delta with the stop reason and cumulative usage, message_stop.
 */
export function createMessagesStream(context: AnswerContext): SimulatedStream {
  const state: StreamState = { context, ids: createMessagesIds(context.plan), index: 0 };
  return { frames: messagesFrames(state), errorFrame: messagesErrorFrame };
}

function* messagesFrames(state: StreamState): Generator<SSEFrame> {
  const { plan } = state.context;
  const startUsage = buildMessagesUsage(state.context, Math.min(1, plan.usage.outputTokens));
  const message = { ...messageHead(state.context, state.ids, []), stop_reason: null, stop_sequence: null, usage: startUsage };
  yield namedFrame('setup', { type: 'message_start', message });
  if (plan.reasoning !== undefined) yield* thinkingBlockFrames(state, plan.reasoning);
  if (plan.textTokens.length > 0) yield* textBlockFrames(state, plan.textTokens);
  for (const [position, call] of plan.toolCalls.entries()) yield* toolUseBlockFrames(state, call, position);
  const finalUsage = buildMessagesUsage(state.context, plan.usage.outputTokens);
  yield namedFrame('terminal', {
    type: 'message_delta',
    delta: { stop_reason: messagesStopReason(plan), stop_sequence: plan.stopSequence ?? null, stop_details: null },
    usage: {
      input_tokens: finalUsage.input_tokens,
      cache_creation_input_tokens: finalUsage.cache_creation_input_tokens,
      cache_read_input_tokens: finalUsage.cache_read_input_tokens,
      output_tokens: finalUsage.output_tokens,
      ...thinkingDetails(plan),
    },
  });
  yield namedFrame('terminal', { type: 'message_stop' });
}

/** Opens block `state.index`; the real API sends one `ping` right after the first block starts. */
function* startBlock(state: StreamState, contentBlock: Record<string, unknown>): Generator<SSEFrame> {
  yield namedFrame('setup', { type: 'content_block_start', index: state.index, content_block: contentBlock });
  if (state.index === 0) yield namedFrame('setup', { type: 'ping' });
}

function* thinkingBlockFrames(state: StreamState, reasoning: PlannedReasoning) {
  const index = state.index;
  yield* startBlock(state, { type: 'thinking', thinking: '', signature: '' });
  for (const token of reasoning.tokens) {
    yield namedFrame('token', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: token } });
  }
  yield namedFrame('setup', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: reasoning.signature } });
  yield namedFrame('setup', { type: 'content_block_stop', index });
  state.index += 1;
}

function* textBlockFrames(state: StreamState, tokens: readonly string[]) {
  const index = state.index;
  yield* startBlock(state, { type: 'text', text: '' });
  for (const token of tokens) {
    yield namedFrame('token', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: token } });
  }
  yield namedFrame('setup', { type: 'content_block_stop', index });
  state.index += 1;
}

function* toolUseBlockFrames(state: StreamState, call: PlannedToolCall, position: number) {
  const index = state.index;
  const id = state.ids.tools[position];
  yield* startBlock(state, { type: 'tool_use', id, name: call.name, input: {}, caller: { type: 'direct' } });
  for (const fragment of call.argumentFragments) {
    yield namedFrame('token', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: fragment } });
  }
  yield namedFrame('setup', { type: 'content_block_stop', index });
  state.index += 1;
}

/** The Messages in-stream error: `event: error`, overloaded. No message_stop follows. */
function messagesErrorFrame(): string {
  return namedFrame('terminal', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }).text;
}
