import { assertNever, type StreamEvent } from '@signalbox/core';

/** The one IR block a Chat stream decoder has open at a time. */
export type OpenBlock =
  | { kind: 'text' | 'reasoning' | 'refusal'; id: string }
  | { kind: 'tool-call'; id: string; callId: string; toolName: string };

/** Emits the block's `*-start` event and returns the block, now open. */
export function openBlock(block: OpenBlock, events: StreamEvent[]): OpenBlock {
  switch (block.kind) {
    case 'text':
      events.push({ type: 'text-start', id: block.id });
      return block;
    case 'reasoning':
      events.push({ type: 'reasoning-start', id: block.id });
      return block;
    case 'refusal':
      events.push({ type: 'refusal-start', id: block.id });
      return block;
    case 'tool-call':
      events.push({ type: 'tool-call-start', id: block.id, callId: block.callId, toolName: block.toolName });
      return block;
    default:
      return assertNever(block, 'Chat stream block');
  }
}

/** Emits the block's `*-end` event (tool-call arguments were already forwarded as deltas). */
export function closeBlock(block: OpenBlock, events: StreamEvent[]): void {
  switch (block.kind) {
    case 'text':
      events.push({ type: 'text-end', id: block.id });
      return;
    case 'reasoning':
      events.push({ type: 'reasoning-end', id: block.id });
      return;
    case 'refusal':
      events.push({ type: 'refusal-end', id: block.id });
      return;
    case 'tool-call':
      events.push({ type: 'tool-call-end', id: block.id });
      return;
    default:
      return assertNever(block, 'Chat stream block');
  }
}
