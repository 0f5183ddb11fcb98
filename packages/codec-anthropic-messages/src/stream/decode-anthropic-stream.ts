import {
  assertNever,
  GatewayError,
  isJSONObject,
  streamEndedEarly,
  type JSONObject,
  type FinishReason,
  type SSEMessage,
  type StreamDecoder,
  type StreamEvent,
} from '@signalbox/core';
import {
  ANTHROPIC_STREAM_EVENT_TYPES,
  anthropicStreamEventSchema,
  type AnthropicStreamEvent,
} from '../schema/anthropic-stream-event-schema';
import { readCommonAnthropicEvent } from './read-common-anthropic-event';
import { createAnthropicBodyError } from '../error/anthropic-error-envelope';
import { mapAnthropicStopReason } from '../stop-reason/map-anthropic-stop-reason';
import { decodeAnthropicUsage, type AnthropicUsageCounts } from '../usage/decode-anthropic-usage';

type EventOf<Type extends AnthropicStreamEvent['type']> = Extract<AnthropicStreamEvent, { type: Type }>;

type OpenBlock = {
  id: string;
  kind: 'text' | 'reasoning' | 'tool-call';
  signature?: string;
  /** Tool input given whole in `content_block_start` (some Anthropic-compatible servers do this). */
  startArguments?: string;
  sawArguments?: boolean;
};

type DecoderState = {
  /** Blocks started and not yet stopped, by the upstream's `index`. */
  blocks: Map<number, OpenBlock>;
  /** Cumulative usage as Messages counts it; converted to IR semantics when reported. */
  usage: AnthropicUsageCounts;
  finishReason: FinishReason;
  finished: boolean;
};

/**
 * Upstream Messages SSE → IR events. Block ids are the upstream `index` as a string; a signature
 * (`signature_delta`) is held until its block stops and travels on `reasoning-end`. A stream that
 * ends without `message_stop` or `error` ends in an IR `error`, never a silent success.
 */
export function createAnthropicStreamDecoder(): StreamDecoder {
  const state: DecoderState = {
    blocks: new Map(),
    usage: {},
    finishReason: { unified: 'other', raw: undefined },
    finished: false,
  };
  return {
    push(message) {
      if (state.finished) return [];
      const parsed = parseStreamEvent(message);
      if (parsed === undefined) return [];
      const events: StreamEvent[] = [];
      if (GatewayError.isInstance(parsed)) fail(parsed, state, events);
      else handleEvent(parsed, state, events);
      return events;
    },
    end() {
      if (state.finished) return [];
      const events: StreamEvent[] = [];
      fail(streamEndedEarly(), state, events);
      return events;
    },
  };
}

/**
 * One JSON.parse per message; `undefined` for event types we do not know (skipped), but a frame
 * whose data is not JSON is a failure whatever its event name. An upstream `error` event becomes the
 * IR error whatever its body looks like (even plain text).
 */
function parseStreamEvent(message: SSEMessage): AnthropicStreamEvent | GatewayError | undefined {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    if (message.event === 'error') return createAnthropicBodyError(message.data);
    return new GatewayError({
      code: 'UPSTREAM_FAILED',
      message: 'The upstream sent malformed JSON in a stream event.',
    });
  }
  if (message.event !== undefined && !ANTHROPIC_STREAM_EVENT_TYPES.has(message.event)) return undefined;
  const type = isJSONObject(data) ? data.type : undefined;
  if (message.event === 'error' || type === 'error') return createAnthropicBodyError(data);
  if (typeof type !== 'string' || !ANTHROPIC_STREAM_EVENT_TYPES.has(type)) return undefined;
  const common = readCommonAnthropicEvent(data as JSONObject);
  if (common !== undefined) return common;
  const result = anthropicStreamEventSchema.safeParse(data);
  if (result.success) return result.data;
  return new GatewayError({
    code: 'UPSTREAM_FAILED',
    message: `The upstream sent a malformed '${type}' stream event.`,
  });
}

function handleEvent(event: AnthropicStreamEvent, state: DecoderState, events: StreamEvent[]): void {
  switch (event.type) {
    case 'message_start':
      return startResponse(event, state, events);
    case 'content_block_start':
      return startBlock(event, state, events);
    case 'content_block_delta':
      return applyDelta(event, state, events);
    case 'content_block_stop':
      return endBlock(event.index, state, events);
    case 'message_delta':
      return applyMessageDelta(event, state);
    case 'message_stop': {
      for (const index of [...state.blocks.keys()]) endBlock(index, state, events);
      state.finished = true;
      return void events.push({
        type: 'response-end',
        finishReason: state.finishReason,
        usage: decodeAnthropicUsage(state.usage),
      });
    }
    case 'ping':
      return;
    default:
      return assertNever(event, 'Anthropic stream event');
  }
}

function startResponse(event: EventOf<'message_start'>, state: DecoderState, events: StreamEvent[]): void {
  const usage = event.message.usage;
  if (usage) Object.assign(state.usage, usage);
  events.push({
    type: 'response-start',
    id: event.message.id,
    model: event.message.model ?? '',
    ...(usage && { usage: decodeAnthropicUsage(usage) }),
  });
}

function startBlock(event: EventOf<'content_block_start'>, state: DecoderState, events: StreamEvent[]): void {
  const block = event.content_block;
  const id = String(event.index);
  switch (block.type) {
    case 'text':
      state.blocks.set(event.index, { id, kind: 'text' });
      events.push({ type: 'text-start', id });
      if (block.text) events.push({ type: 'text-delta', id, delta: block.text });
      return;
    case 'thinking':
      state.blocks.set(event.index, {
        id,
        kind: 'reasoning',
        ...(block.signature ? { signature: block.signature } : {}),
      });
      events.push({ type: 'reasoning-start', id });
      if (block.thinking) events.push({ type: 'reasoning-delta', id, delta: block.thinking });
      return;
    case 'redacted_thinking':
      state.blocks.set(event.index, { id, kind: 'reasoning' });
      return void events.push({ type: 'reasoning-start', id, redactedData: block.data ?? '' });
    case 'tool_use':
      if (!block.id || !block.name) {
        const message = "The upstream sent a 'tool_use' block without an id or name.";
        return fail(new GatewayError({ code: 'UPSTREAM_FAILED', message }), state, events);
      }
      state.blocks.set(event.index, { id, kind: 'tool-call', ...startArguments(block.input) });
      return void events.push({ type: 'tool-call-start', id, callId: block.id, toolName: block.name });
    default:
      // Server-tool blocks and future types have no IR form; their deltas and stop are skipped too.
      return;
  }
}

function applyDelta(event: EventOf<'content_block_delta'>, state: DecoderState, events: StreamEvent[]): void {
  const block = state.blocks.get(event.index);
  if (block === undefined) return;
  const delta = event.delta;
  if (delta.type === 'text_delta' && block.kind === 'text' && delta.text) {
    events.push({ type: 'text-delta', id: block.id, delta: delta.text });
  } else if (delta.type === 'thinking_delta' && block.kind === 'reasoning' && delta.thinking) {
    events.push({ type: 'reasoning-delta', id: block.id, delta: delta.thinking });
  } else if (delta.type === 'signature_delta' && block.kind === 'reasoning' && delta.signature) {
    block.signature = (block.signature ?? '') + delta.signature;
  } else if (delta.type === 'input_json_delta' && block.kind === 'tool-call' && delta.partial_json) {
    block.sawArguments = true;
    events.push({ type: 'tool-call-delta', id: block.id, argumentsDelta: delta.partial_json });
  }
  // citations_delta and future delta types carry nothing the IR keeps.
}

function endBlock(index: number, state: DecoderState, events: StreamEvent[]): void {
  const block = state.blocks.get(index);
  if (block === undefined) return;
  state.blocks.delete(index);
  switch (block.kind) {
    case 'text':
      return void events.push({ type: 'text-end', id: block.id });
    case 'reasoning':
      return void events.push({
        type: 'reasoning-end',
        id: block.id,
        ...(block.signature ? { signature: block.signature } : {}),
      });
    case 'tool-call':
      if (block.startArguments === undefined || block.sawArguments)
        return void events.push({ type: 'tool-call-end', id: block.id });
      return void events.push({ type: 'tool-call-end', id: block.id, arguments: block.startArguments });
    default:
      return assertNever(block.kind, 'open block kind');
  }
}

// The real API starts tool_use blocks with `input: {}` and streams the JSON; a non-empty start input
// is kept and reported on tool-call-end when no fragment followed.
function startArguments(input: unknown): { startArguments?: string } {
  return isJSONObject(input) && Object.keys(input).length > 0
    ? { startArguments: JSON.stringify(input) }
    : {};
}

// `output_tokens` is cumulative (a total, not an increment); other counters overwrite when non-null.
function applyMessageDelta(event: EventOf<'message_delta'>, state: DecoderState): void {
  if (event.delta)
    state.finishReason = mapAnthropicStopReason(event.delta.stop_reason, event.delta.stop_sequence);
  const usage = event.usage;
  if (!usage) return;
  if (usage.output_tokens != null) state.usage.output_tokens = usage.output_tokens;
  if (usage.input_tokens != null) state.usage.input_tokens = usage.input_tokens;
  if (usage.cache_creation_input_tokens != null)
    state.usage.cache_creation_input_tokens = usage.cache_creation_input_tokens;
  if (usage.cache_read_input_tokens != null)
    state.usage.cache_read_input_tokens = usage.cache_read_input_tokens;
  if (usage.cache_creation != null) state.usage.cache_creation = usage.cache_creation;
  if (usage.output_tokens_details != null) state.usage.output_tokens_details = usage.output_tokens_details;
}

function fail(error: GatewayError, state: DecoderState, events: StreamEvent[]): void {
  state.finished = true;
  events.push({ type: 'error', error });
}
