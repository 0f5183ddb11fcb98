import type { JSONObject, SSEMessage } from '@signalbox/core';
import { formatAnthropicEvent } from './format-anthropic-event';

type Block = {
  contentBlock: JSONObject;
  /** Held back entirely until its end (thinking: only a signed block may be sent). */
  deferred: boolean;
  /** The wire `index`, set when `content_block_start` went out. */
  index: number | undefined;
  /** Delta payloads not on the wire yet. */
  waiting: JSONObject[];
  /** Deltas seen for this block, sent or waiting. */
  deltaCount: number;
  ended: boolean;
  dropped: boolean;
};

/** How a block ends: `append` goes out last; `complete` is the whole content as one delta (see `end`). */
export type BlockEnd = { append?: JSONObject; complete?: JSONObject };

/**
 * Puts IR blocks on the Messages wire one at a time, with contiguous indices from 0: the SDK
 * indexes its content array by `index`, and the real API never interleaves blocks. A block that
 * starts while another is open waits (its deltas buffered) until every earlier block has stopped.
 */
export interface AnthropicBlockSequencer {
  start(id: string, contentBlock: JSONObject, options?: { deferred?: boolean }): SSEMessage[];
  delta(id: string, delta: JSONObject): SSEMessage[];
  /**
   * Stops a block. `complete` (the whole content, e.g. tool arguments sent only at the end) is sent
   * when no delta was seen, and replaces the buffered deltas when none went out yet.
   */
  end(id: string, blockEnd?: BlockEnd): SSEMessage[];
  /** Removes a block that must not reach the client (a block already on the wire is just stopped). */
  drop(id: string): SSEMessage[];
  /** The `type` of a started, unfinished block. */
  typeOf(id: string): string | undefined;
  /** Ends every open block (deferred ones are dropped) and flushes the queue. */
  finishAll(): SSEMessage[];
}

type SequencerState = {
  /** Started, unfinished blocks by IR id. */
  open: Map<string, Block>;
  /** Blocks in start order; only the head is ever on the wire. */
  queue: Block[];
  nextIndex: number;
};

/** A fresh sequencer for one stream. */
export function createAnthropicBlockSequencer(): AnthropicBlockSequencer {
  const state: SequencerState = { open: new Map(), queue: [], nextIndex: 0 };
  return {
    start: (id, contentBlock, options) => startBlock(state, id, contentBlock, options?.deferred ?? false),
    delta: (id, delta) => addDelta(state, id, delta),
    end: (id, blockEnd = {}) => endBlock(state, id, blockEnd),
    drop: id => dropBlock(state, id),
    typeOf: id => state.open.get(id)?.contentBlock.type as string | undefined,
    finishAll: () => finishAll(state),
  };
}

function startBlock(
  state: SequencerState,
  id: string,
  contentBlock: JSONObject,
  deferred: boolean,
): SSEMessage[] {
  const block: Block = {
    contentBlock,
    deferred,
    index: undefined,
    waiting: [],
    deltaCount: 0,
    ended: false,
    dropped: false,
  };
  state.open.set(id, block);
  state.queue.push(block);
  return pump(state);
}

function addDelta(state: SequencerState, id: string, delta: JSONObject): SSEMessage[] {
  const block = state.open.get(id);
  if (block === undefined) return [];
  block.deltaCount++;
  // Only the head of the queue is ever on the wire, so a block with an index is live.
  if (block.index !== undefined)
    return [formatAnthropicEvent({ type: 'content_block_delta', index: block.index, delta })];
  block.waiting.push(delta);
  return [];
}

function endBlock(state: SequencerState, id: string, blockEnd: BlockEnd): SSEMessage[] {
  const block = state.open.get(id);
  if (block === undefined) return [];
  state.open.delete(id);
  if (blockEnd.complete !== undefined && (block.deltaCount === 0 || block.index === undefined)) {
    block.waiting = [blockEnd.complete];
  }
  if (blockEnd.append !== undefined) block.waiting.push(blockEnd.append);
  block.ended = true;
  return pump(state);
}

function dropBlock(state: SequencerState, id: string): SSEMessage[] {
  const block = state.open.get(id);
  if (block === undefined) return [];
  state.open.delete(id);
  if (block.index !== undefined) block.ended = true;
  else block.dropped = true;
  return pump(state);
}

function finishAll(state: SequencerState): SSEMessage[] {
  for (const block of state.open.values()) {
    if (block.deferred) block.dropped = true;
    else block.ended = true;
  }
  state.open.clear();
  return pump(state);
}

/** Puts every block that may go out on the wire, in order, stopping at the first one still open. */
function pump(state: SequencerState): SSEMessage[] {
  const messages: SSEMessage[] = [];
  while (state.queue.length > 0) {
    const head = state.queue[0]!;
    if (head.dropped) {
      state.queue.shift();
      continue;
    }
    if (head.deferred && !head.ended) break;
    if (head.index === undefined) {
      head.index = state.nextIndex++;
      messages.push(
        formatAnthropicEvent({
          type: 'content_block_start',
          index: head.index,
          content_block: head.contentBlock,
        }),
      );
    }
    for (const delta of head.waiting)
      messages.push(formatAnthropicEvent({ type: 'content_block_delta', index: head.index, delta }));
    head.waiting = [];
    if (!head.ended) break;
    messages.push(formatAnthropicEvent({ type: 'content_block_stop', index: head.index }));
    state.queue.shift();
  }
  return messages;
}
