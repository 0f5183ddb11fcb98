import type { AnswerContext } from './answer-context';
import type { PlannedReasoning } from './answer-plan';
import { buildResponseObject, buildResponsesOutput, createResponsesIds, type ResponsesIds } from './responses-json';
import { namedFrame, type SimulatedStream, type SSEFrame, type SSEFrameKind } from './sse-frame';

type OutputItem = ReturnType<typeof buildResponsesOutput>[number];
type StreamState = { sequence: number; context: AnswerContext; ids: ResponsesIds; output: OutputItem[] };

/**
 * `POST /v1/responses` with `stream: true`: the full event grammar (created, in_progress, each
 * output item with its parts and deltas, then the terminal event) with `event:` lines,
 * `sequence_number` from 0, and the final output + usage in the terminal event.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 * @see docs/protocol-notes.md#responses-stream
 */
export function createResponsesStream(context: AnswerContext): SimulatedStream {
  const ids = createResponsesIds(context);
  const state: StreamState = { sequence: 0, context, ids, output: buildResponsesOutput(context, ids) };
  return { frames: responsesFrames(state), errorFrame: () => responsesErrorFrame(state) };
}

function* responsesFrames(state: StreamState): Generator<SSEFrame> {
  const snapshot = buildResponseObject(state.context, state.ids, undefined);
  yield frame(state, 'setup', 'response.created', { response: snapshot });
  yield frame(state, 'setup', 'response.in_progress', { response: snapshot });
  const { plan } = state.context;
  for (const [outputIndex, item] of state.output.entries()) {
    if (item.type === 'reasoning') yield* reasoningItemFrames(state, outputIndex, item, plan.reasoning as PlannedReasoning);
    else if (item.type === 'message') yield* messageItemFrames(state, outputIndex, item);
    else yield* functionCallFrames(state, outputIndex, item);
  }
  const terminal = plan.finish === 'length' ? 'response.incomplete' : 'response.completed';
  yield frame(state, 'terminal', terminal, { response: buildResponseObject(state.context, state.ids, state.output) });
}

function* reasoningItemFrames(state: StreamState, outputIndex: number, item: OutputItem, reasoning: PlannedReasoning) {
  const scope = { item_id: item.id, output_index: outputIndex, summary_index: 0 };
  yield frame(state, 'setup', 'response.output_item.added', { output_index: outputIndex, item: { id: item.id, type: 'reasoning', summary: [] } });
  yield frame(state, 'setup', 'response.reasoning_summary_part.added', { ...scope, part: { type: 'summary_text', text: '' } });
  for (const token of reasoning.tokens) {
    yield frame(state, 'token', 'response.reasoning_summary_text.delta', { ...scope, delta: token });
  }
  yield frame(state, 'setup', 'response.reasoning_summary_text.done', { ...scope, text: reasoning.text });
  yield frame(state, 'setup', 'response.reasoning_summary_part.done', { ...scope, part: { type: 'summary_text', text: reasoning.text } });
  yield frame(state, 'setup', 'response.output_item.done', { output_index: outputIndex, item });
}

function* messageItemFrames(state: StreamState, outputIndex: number, item: OutputItem) {
  const { plan } = state.context;
  const scope = { item_id: item.id, output_index: outputIndex, content_index: 0 };
  const added = { id: item.id, type: 'message', status: 'in_progress', content: [], role: 'assistant' };
  yield frame(state, 'setup', 'response.output_item.added', { output_index: outputIndex, item: added });
  const emptyPart = { type: 'output_text', annotations: [], logprobs: [], text: '' };
  yield frame(state, 'setup', 'response.content_part.added', { ...scope, part: emptyPart });
  for (const token of plan.textTokens) {
    yield frame(state, 'token', 'response.output_text.delta', { ...scope, delta: token, logprobs: [] });
  }
  yield frame(state, 'setup', 'response.output_text.done', { ...scope, text: plan.text, logprobs: [] });
  const finalPart = { type: 'output_text', annotations: [], logprobs: [], text: plan.text };
  yield frame(state, 'setup', 'response.content_part.done', { ...scope, part: finalPart });
  yield frame(state, 'setup', 'response.output_item.done', { output_index: outputIndex, item });
}

function* functionCallFrames(state: StreamState, outputIndex: number, item: OutputItem) {
  const call = state.context.plan.toolCalls[state.ids.calls.findIndex(ids => ids.item === item.id)];
  if (call === undefined) return;
  const added = { ...item, arguments: '', status: 'in_progress' };
  yield frame(state, 'setup', 'response.output_item.added', { output_index: outputIndex, item: added });
  for (const fragment of call.argumentFragments) {
    yield frame(state, 'token', 'response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: fragment });
  }
  yield frame(state, 'setup', 'response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: call.arguments });
  yield frame(state, 'setup', 'response.output_item.done', { output_index: outputIndex, item });
}

/**
 * The `error` event in both shapes at once: the documented flat fields and the nested `error`
 * object OpenAI's own streams send, so clients reading either shape find the message.
 * @see docs/protocol-notes.md#responses-error-event-shapes
 */
function responsesErrorFrame(state: StreamState): string {
  const message = 'The server had an error while processing your request.';
  state.sequence = Math.max(0, state.sequence - 1); // replaces the dropped frame, keeping numbers contiguous
  return frame(state, 'terminal', 'error', {
    code: 'server_error',
    message,
    param: null,
    error: { type: 'server_error', code: 'server_error', message, param: null },
  }).text;
}

function frame(state: StreamState, kind: SSEFrameKind, type: string, fields: Record<string, unknown>): SSEFrame {
  const sequence = state.sequence;
  state.sequence += 1;
  return namedFrame(kind, { type, sequence_number: sequence, ...fields });
}
