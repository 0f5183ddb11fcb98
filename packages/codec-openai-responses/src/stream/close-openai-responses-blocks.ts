import type { JSONObject } from '@signalbox/core';
import { findOpenBlock, type DecoderState, type Out } from './openai-responses-decoder-state';
import { partText, stringOrUndefined } from './openai-responses-wire-event';

// Decoder side: these end the IR blocks opened for the upstream's items and parts. The encoder's
// functions that open and close the client's items live in encode-openai-responses-blocks.ts.

/** A reasoning part whose text came only in its `.done` event still reaches the IR, once. */
export function completeReasoningPart(
  key: string | undefined,
  text: unknown,
  state: DecoderState,
  out: Out,
): void {
  const block = findOpenBlock(key, state);
  const full = stringOrUndefined(text);
  if (block?.kind !== 'reasoning' || block.hasDelta || !full) return;
  block.hasDelta = true;
  out.push({ type: 'reasoning-delta', id: block.id, delta: full });
}

/** Ends a text/refusal part once; text the upstream sent only in `.done` is forwarded as one delta. */
export function closeUpstreamPart(
  key: string | undefined,
  text: unknown,
  state: DecoderState,
  out: Out,
): void {
  const block = findOpenBlock(key, state);
  if (key === undefined || block === undefined || (block.kind !== 'text' && block.kind !== 'refusal')) return;
  const full = stringOrUndefined(text);
  if (!block.hasDelta && full) out.push({ type: `${block.kind}-delta`, id: block.id, delta: full });
  out.push({ type: `${block.kind}-end`, id: block.id });
  state.blocks.delete(key);
}

/** Ends a tool call once, carrying the complete arguments (some upstreams send them only here). */
export function closeUpstreamToolCall(
  key: string | undefined,
  argumentsText: unknown,
  state: DecoderState,
  out: Out,
): void {
  const block = findOpenBlock(key, state);
  if (block?.kind !== 'tool-call' || block.ended) return;
  const full = stringOrUndefined(argumentsText);
  out.push(
    full === undefined
      ? { type: 'tool-call-end', id: block.id }
      : { type: 'tool-call-end', id: block.id, arguments: full },
  );
  block.ended = true;
}

/** Closes the parts of a message item the upstream left open, taking their text from the final item. */
export function closeMessageParts(key: string, item: JSONObject, state: DecoderState, out: Out): void {
  const content = Array.isArray(item.content) ? item.content : [];
  for (const blockKey of [...state.blocks.keys()]) {
    if (!blockKey.startsWith(`${key}:`)) continue;
    const contentIndex = Number(blockKey.slice(key.length + 1));
    closeUpstreamPart(blockKey, partText(content[contentIndex]), state, out);
  }
}

/** Every IR `*-start` gets its `*-end`, even when the upstream skipped closing events. */
export function closeOpenBlocks(state: DecoderState, out: Out): void {
  for (const block of state.blocks.values()) {
    if (!block.ended) out.push({ type: `${block.kind}-end`, id: block.id });
  }
  state.blocks.clear();
}
