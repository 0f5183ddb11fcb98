import type { StreamEvent } from '@signalbox/core';

export type BlockKind = 'text' | 'refusal' | 'reasoning' | 'tool-call';
/**
 * An IR block the upstream opened. `hasDelta` is per content part; `ended` marks a tool call already
 * ended by `function_call_arguments.done`, kept until its `output_item.done` so it never ends twice.
 */
export type OpenBlock = { kind: BlockKind; id: string; hasDelta: boolean; parts: number; ended: boolean };
export type DecoderState = {
  started: boolean;
  finished: boolean;
  hasFunctionCall: boolean;
  /** Keyed by `output_index` (items) or `output_index:content_index` (message parts). */
  blocks: Map<string, OpenBlock>;
};
export type Out = StreamEvent[];

/** The block still open under an item or part key, if the upstream opened one. */
export function findOpenBlock(key: string | undefined, state: DecoderState): OpenBlock | undefined {
  return key === undefined ? undefined : state.blocks.get(key);
}
