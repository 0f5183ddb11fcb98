import { flattenNamespacedToolName } from '../tools/namespaced-tool-names';
import {
  createId,
  isJSONObject,
  streamEndedEarly,
  type GatewayError,
  type JSONObject,
  type SSEMessage,
  type StreamDecoder,
  type StreamEvent,
} from '@signalbox/core';
import { mapOpenAIResponsesFinishReason } from '../response/map-openai-responses-finish-reason';
import { decodeOpenAIResponsesUsage } from '../response/openai-responses-usage';
import {
  closeMessageParts,
  closeOpenBlocks,
  closeUpstreamPart,
  closeUpstreamToolCall,
  completeReasoningPart,
} from './close-openai-responses-blocks';
import { findOpenBlock, type DecoderState, type OpenBlock, type Out } from './openai-responses-decoder-state';
import {
  errorEventError,
  failedResponseError,
  malformedEventError,
} from './openai-responses-stream-errors';
import {
  itemId,
  itemKey,
  parseWireEvent,
  partKey,
  partText,
  stringOrUndefined,
  type WireEvent,
} from './openai-responses-wire-event';

/**
 * Upstream Responses SSE → IR events. Text and refusal parts, function calls and reasoning items
 * become IR blocks; `response.completed`/`incomplete` end the stream, `response.failed` and `error`
 * (flat or nested shape) become IR errors. Unknown event types are skipped.
 */
export function createOpenAIResponsesStreamDecoder(): StreamDecoder {
  return new OpenAIResponsesStreamDecoder();
}

/** One object per stream, its methods shared by all. */
class OpenAIResponsesStreamDecoder implements StreamDecoder {
  private readonly state: DecoderState = { started: false, finished: false, hasFunctionCall: false, blocks: new Map() };

  push(message: SSEMessage): StreamEvent[] {
    if (this.state.finished) return [];
    const event = parseWireEvent(message.data);
    const out: Out = [];
    if (event === undefined) fail(this.state, out, malformedEventError());
    else handleEvent(event, this.state, out);
    return out;
  }

  end(): StreamEvent[] {
    if (this.state.finished) return [];
    const out: Out = [];
    // No `response.completed` / `.incomplete` / `.failed` / `error`: never a success.
    fail(this.state, out, streamEndedEarly());
    return out;
  }
}

function handleEvent(event: WireEvent, state: DecoderState, out: Out): void {
  switch (event.type) {
    case 'response.created':
    case 'response.queued':
    case 'response.in_progress':
      return startResponse(event.response, state, out);
    case 'response.output_item.added':
      return addItem(event, state, out);
    case 'response.content_part.added':
      return addContentPart(event, state, out);
    case 'response.output_text.delta':
    case 'response.refusal.delta':
    case 'response.function_call_arguments.delta':
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      return applyDelta(event, state, out);
    case 'response.output_text.done':
      return closeUpstreamPart(partKey(event), event.text, state, out);
    case 'response.refusal.done':
      return closeUpstreamPart(partKey(event), event.refusal, state, out);
    case 'response.content_part.done':
      return closeUpstreamPart(partKey(event), partText(event.part), state, out);
    case 'response.function_call_arguments.done':
      return closeUpstreamToolCall(itemKey(event), event.arguments, state, out);
    case 'response.reasoning_summary_part.added':
      return addReasoningPart(event, state, out);
    case 'response.reasoning_summary_text.done':
    case 'response.reasoning_text.done':
      return completeReasoningPart(itemKey(event), event.text, state, out);
    case 'response.output_item.done':
      return finishItem(event, state, out);
    case 'response.completed':
      return endResponse(event.response, 'completed', state, out);
    case 'response.incomplete':
      return endResponse(event.response, 'incomplete', state, out);
    case 'response.failed':
      return fail(state, out, failedResponseError(event.response));
    case 'error':
      return fail(state, out, errorEventError(event));
    default:
      // Forward compatibility: event types the gateway does not know yet are skipped.
      return;
  }
}

function startResponse(response: unknown, state: DecoderState, out: Out): void {
  if (state.started) return;
  state.started = true;
  const wire = isJSONObject(response) ? response : {};
  out.push({ type: 'response-start', id: stringOrUndefined(wire.id) ?? '', model: stringOrUndefined(wire.model) ?? '' });
}

function addItem(event: WireEvent, state: DecoderState, out: Out): void {
  startResponse(undefined, state, out);
  const item = isJSONObject(event.item) ? event.item : {};
  const key = itemKey(event);
  if (key === undefined) return;
  if (item.type === 'function_call') {
    state.hasFunctionCall = true;
    openUpstreamToolCall(key, item, state, out);
  } else if (item.type === 'reasoning') {
    openBlock(key, 'reasoning', itemId(item, key), state, out);
  }
}

function openUpstreamToolCall(key: string, item: JSONObject, state: DecoderState, out: Out): void {
  const id = itemId(item, key);
  state.blocks.set(key, { kind: 'tool-call', id, hasDelta: false, parts: 0, ended: false });
  out.push({
    type: 'tool-call-start',
    id,
    // An upstream that omits call_id must not hand clients an empty id, which their tool result
    // could not name: mint one.
    callId: stringOrUndefined(item.call_id) || createId('call_'),
    toolName: flatToolName(stringOrUndefined(item.name) ?? '', stringOrUndefined(item.namespace)),
  });
}

/** A function of a `namespace` tool is known in the IR by its flat name (`namespace__tool`). */
function flatToolName(name: string, namespace: string | undefined): string {
  return namespace ? flattenNamespacedToolName(namespace, name) : name;
}

function addContentPart(event: WireEvent, state: DecoderState, out: Out): void {
  const part = isJSONObject(event.part) ? event.part : {};
  if (part.type === 'reasoning_text') return addReasoningPart(event, state, out);
  const key = partKey(event);
  if (key === undefined || (part.type !== 'output_text' && part.type !== 'refusal')) return;
  openBlock(
    key,
    part.type === 'refusal' ? 'refusal' : 'text',
    `${stringOrUndefined(event.item_id) ?? key}:${String(event.content_index)}`,
    state,
    out,
  );
}

function openBlock(
  key: string,
  kind: 'text' | 'refusal' | 'reasoning',
  id: string,
  state: DecoderState,
  out: Out,
): OpenBlock {
  startResponse(undefined, state, out);
  const block: OpenBlock = { kind, id, hasDelta: false, parts: 0, ended: false };
  state.blocks.set(key, block);
  out.push({ type: `${kind}-start`, id });
  return block;
}

function applyDelta(event: WireEvent, state: DecoderState, out: Out): void {
  const delta = stringOrUndefined(event.delta);
  if (delta === undefined) return;
  if (event.type === 'response.function_call_arguments.delta') {
    const block = findOpenBlock(itemKey(event), state);
    if (block?.kind !== 'tool-call') return;
    block.hasDelta = true;
    out.push({ type: 'tool-call-delta', id: block.id, argumentsDelta: delta });
    return;
  }
  const block = blockForDelta(event, state, out);
  if (block === undefined || block.kind === 'tool-call') return;
  block.hasDelta = true;
  out.push({ type: `${block.kind}-delta`, id: block.id, delta });
}

/** The open block a text/refusal/reasoning delta belongs to, opened on the fly if the upstream skipped `*.added`. */
function blockForDelta(event: WireEvent, state: DecoderState, out: Out): OpenBlock | undefined {
  const isReasoning = event.type.startsWith('response.reasoning');
  const key = isReasoning ? itemKey(event) : partKey(event);
  if (key === undefined) return undefined;
  const existing = state.blocks.get(key);
  if (existing) return existing;
  if (isReasoning) return openBlock(key, 'reasoning', stringOrUndefined(event.item_id) ?? key, state, out);
  const kind = event.type === 'response.refusal.delta' ? 'refusal' : 'text';
  return openBlock(key, kind, `${stringOrUndefined(event.item_id) ?? key}:${String(event.content_index)}`, state, out);
}

/** A new summary paragraph (or `reasoning_text` part) of an open reasoning item: separated by a blank line. */
function addReasoningPart(event: WireEvent, state: DecoderState, out: Out): void {
  const key = itemKey(event);
  if (key === undefined) return;
  const block =
    state.blocks.get(key) ?? openBlock(key, 'reasoning', stringOrUndefined(event.item_id) ?? key, state, out);
  if (block.parts > 0) out.push({ type: 'reasoning-delta', id: block.id, delta: '\n\n' });
  block.parts += 1;
  block.hasDelta = false;
}

function finishItem(event: WireEvent, state: DecoderState, out: Out): void {
  const item = isJSONObject(event.item) ? event.item : {};
  const key = itemKey(event);
  if (key === undefined) return;
  if (item.type === 'function_call') {
    if (!state.blocks.has(key)) {
      state.hasFunctionCall = true;
      openUpstreamToolCall(key, item, state, out);
    }
    closeUpstreamToolCall(key, item.arguments, state, out);
    state.blocks.delete(key);
    return;
  }
  if (item.type === 'reasoning') {
    const block = state.blocks.get(key) ?? openBlock(key, 'reasoning', itemId(item, key), state, out);
    const encryptedContent = stringOrUndefined(item.encrypted_content);
    out.push(
      encryptedContent
        ? { type: 'reasoning-end', id: block.id, encryptedContent }
        : { type: 'reasoning-end', id: block.id },
    );
    state.blocks.delete(key);
    return;
  }
  if (item.type === 'message') closeMessageParts(key, item, state, out);
}

/** The terminal success or truncation; `status` is the event's own word when the response omits it. */
function endResponse(response: unknown, status: string, state: DecoderState, out: Out): void {
  startResponse(response, state, out);
  const wire = isJSONObject(response) ? response : {};
  closeOpenBlocks(state, out);
  const incomplete = isJSONObject(wire.incomplete_details)
    ? stringOrUndefined(wire.incomplete_details.reason)
    : undefined;
  const hasFunctionCall =
    state.hasFunctionCall ||
    (Array.isArray(wire.output) &&
      wire.output.some(item => isJSONObject(item) && item.type === 'function_call'));
  out.push({
    type: 'response-end',
    finishReason: mapOpenAIResponsesFinishReason(
      stringOrUndefined(wire.status) ?? status,
      incomplete,
      hasFunctionCall,
    ),
    usage: decodeOpenAIResponsesUsage(wire.usage),
  });
  state.finished = true;
}

function fail(state: DecoderState, out: Out, error: GatewayError): void {
  out.push({ type: 'error', error });
  state.finished = true;
}
