import {
  assertNever,
  createId,
  streamEndedEarly,
  type EncodeContext,
  type GatewayError,
  type SSEMessage,
  type StreamEncoder,
  type StreamEvent,
  type Usage,
} from '@signalbox/core';
import { mapAnthropicStreamErrorType } from '../error/anthropic-error-envelope';
import { encodeAnthropicStopReason } from '../stop-reason/encode-anthropic-stop-reason';
import { encodeAnthropicDeltaUsage, encodeAnthropicUsage } from '../usage/encode-anthropic-usage';
import { createAnthropicBlockSequencer, type AnthropicBlockSequencer } from './anthropic-block-sequencer';
import { formatAnthropicEvent } from './format-anthropic-event';

type EventOf<Type extends StreamEvent['type']> = Extract<StreamEvent, { type: Type }>;

type EncoderState = {
  context: EncodeContext;
  blocks: AnthropicBlockSequencer;
  started: boolean;
  finished: boolean;
  hasToolUse: boolean;
  /** A text or tool_use block has started: thinking that comes now has no place before it. */
  answered: boolean;
  /** Reasoning blocks that started after the answer had, and whether they carry text (then dropped whole). */
  late: Map<string, boolean>;
  /** The signature of late reasoning without text, sent as a thinking block before the next block. */
  lateSignature: string | undefined;
};

/**
 * IR events → the client's Messages SSE: `message_start`, one `ping`, content blocks with
 * contiguous indices, `message_delta` with final usage, `message_stop` — or `error` and nothing
 * after it. Reasoning is held until its end and sent only when signed (or redacted): an unsigned
 * thinking block would be rejected when the client replays it to Anthropic. Thinking comes first in
 * a message: a signature that arrives after the answer started (Gemini signs its answer's last text)
 * goes before the next block, or nowhere when none follows, since a client reads a message's answer
 * from its last block.
 * @see https://docs.anthropic.com/en/api/messages-streaming
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
export function createAnthropicStreamEncoder(context: EncodeContext): StreamEncoder {
  const state: EncoderState = {
    context,
    blocks: createAnthropicBlockSequencer(),
    started: false,
    finished: false,
    hasToolUse: false,
    answered: false,
    late: new Map(),
    lateSignature: undefined,
  };
  return {
    push(event) {
      if (state.finished) return [];
      const messages: SSEMessage[] = [];
      if (!state.started && event.type !== 'error')
        messages.push(...startMessage(state, event.type === 'response-start' ? event.usage : undefined));
      messages.push(...handleEvent(event, state));
      return messages;
    },
    end() {
      if (state.finished) return [];
      return fail(streamEndedEarly(), state);
    },
  };
}

function handleEvent(event: StreamEvent, state: EncoderState): SSEMessage[] {
  const blocks = state.blocks;
  switch (event.type) {
    case 'response-start':
      return [];
    case 'text-start':
    case 'refusal-start':
      return [...startAnswer(state), ...blocks.start(event.id, { type: 'text', text: '' })];
    case 'text-delta':
    case 'refusal-delta':
      return event.delta === '' ? [] : blocks.delta(event.id, { type: 'text_delta', text: event.delta });
    case 'text-end':
    case 'refusal-end':
      return blocks.end(event.id);
    case 'reasoning-start':
      return startReasoning(event, state);
    case 'reasoning-delta':
      if (state.late.has(event.id) && event.delta !== '') state.late.set(event.id, true);
      if (event.delta === '' || blocks.typeOf(event.id) !== 'thinking') return [];
      return blocks.delta(event.id, { type: 'thinking_delta', thinking: event.delta });
    case 'reasoning-end':
      return endReasoning(event, state);
    case 'tool-call-start':
      state.hasToolUse = true;
      return [...startAnswer(state), ...blocks.start(event.id, { type: 'tool_use', id: event.callId, name: event.toolName, input: {} })];
    case 'tool-call-delta':
      if (event.argumentsDelta === '') return [];
      return blocks.delta(event.id, { type: 'input_json_delta', partial_json: event.argumentsDelta });
    case 'tool-call-end':
      // Some upstreams send a call's arguments only with its end; the client must still get them.
      if (!event.arguments) return blocks.end(event.id);
      return blocks.end(event.id, { complete: { type: 'input_json_delta', partial_json: event.arguments } });
    case 'response-end':
      return finishMessage(event, state);
    case 'error':
      return fail(event.error, state);
    default:
      return assertNever(event, 'IR stream event');
  }
}

// `message_start` carries a Message as the API starts one (no `container` or `diagnostics`); input and
// cache counts are final when the upstream knew them.
function startMessage(state: EncoderState, usage: Usage | undefined): SSEMessage[] {
  state.started = true;
  const message = {
    id: createId('msg_'),
    type: 'message',
    role: 'assistant',
    model: state.context.request.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    stop_details: null,
    usage: encodeAnthropicUsage(usage),
  };
  return [formatAnthropicEvent({ type: 'message_start', message }), formatAnthropicEvent({ type: 'ping' })];
}

/** Marks the answer started, after the thinking block of a late signature if one waits. */
function startAnswer(state: EncoderState): SSEMessage[] {
  state.answered = true;
  const signature = state.lateSignature;
  if (signature === undefined) return [];
  state.lateSignature = undefined;
  const id = createId('late_');
  return [...state.blocks.start(id, { type: 'thinking', thinking: '', signature: '' }), ...state.blocks.end(id, { append: { type: 'signature_delta', signature } })];
}

function startReasoning(event: EventOf<'reasoning-start'>, state: EncoderState): SSEMessage[] {
  if (state.answered && event.redactedData === undefined) {
    state.late.set(event.id, false);
    return [];
  }
  if (event.redactedData !== undefined) {
    return state.blocks.start(event.id, { type: 'redacted_thinking', data: event.redactedData });
  }
  // The signature only arrives on reasoning-end, so the block waits until then (see README).
  return state.blocks.start(event.id, { type: 'thinking', thinking: '', signature: '' }, { deferred: true });
}

function endReasoning(event: EventOf<'reasoning-end'>, state: EncoderState): SSEMessage[] {
  const lateWithText = state.late.get(event.id);
  if (lateWithText !== undefined) {
    state.late.delete(event.id);
    if (!lateWithText && event.signature) state.lateSignature = event.signature;
    return [];
  }
  if (state.blocks.typeOf(event.id) !== 'thinking') return state.blocks.end(event.id);
  if (!event.signature) return state.blocks.drop(event.id);
  return state.blocks.end(event.id, { append: { type: 'signature_delta', signature: event.signature } });
}

// Final usage goes in message_delta too: the SDKs read the final and cache counts from there.
function finishMessage(event: EventOf<'response-end'>, state: EncoderState): SSEMessage[] {
  state.finished = true;
  const messages = state.blocks.finishAll();
  const stop = encodeAnthropicStopReason(event.finishReason, state.hasToolUse);
  messages.push(
    formatAnthropicEvent({
      type: 'message_delta',
      delta: stop,
      usage: encodeAnthropicDeltaUsage(event.usage),
    }),
    formatAnthropicEvent({ type: 'message_stop' }),
  );
  return messages;
}

// The failure terminal: `event: error`, no closing events, nothing after it.
function fail(error: GatewayError, state: EncoderState): SSEMessage[] {
  state.finished = true;
  return [
    formatAnthropicEvent({
      type: 'error',
      error: { type: mapAnthropicStreamErrorType(error), message: error.message },
    }),
  ];
}
