import type { JSONObject, SSEMessage, ToolDefinition } from '@signalbox/core';

/** The message item currently open; consecutive text/refusal blocks share it. */
export type OpenMessageItem = { id: string; outputIndex: number; content: JSONObject[] };

/** An open IR block and the output item (or message part) it streams into. */
export type OpenBlock =
  | { kind: 'text' | 'refusal'; message: OpenMessageItem; contentIndex: number; text: string }
  | {
      kind: 'tool-call';
      id: string;
      outputIndex: number;
      callId: string;
      name: string;
      namespace?: string;
      arguments: string;
      hasDelta: boolean;
    }
  | {
      kind: 'reasoning';
      id: string;
      outputIndex: number;
      text: string;
      summaryOpen: boolean;
      /** Anthropic redacted thinking, carried to the item's `encrypted_content` when it closes. */
      redactedData?: string;
    };

/**
 * Per-stream state of the Responses stream encoder. Constant size except `output` (the final items,
 * needed for the terminal event) and the text of open blocks (needed for their `.done` events).
 */
export type EncoderState = {
  responseId: string;
  createdAt: number;
  echo: JSONObject;
  /** The client's tools, to give each call the name (and namespace) the client declared. */
  tools: readonly ToolDefinition[] | undefined;
  sequenceNumber: number;
  started: boolean;
  finished: boolean;
  /** Output items by `output_index`; open items hold their in-progress form until `output_item.done`. */
  output: JSONObject[];
  message: OpenMessageItem | undefined;
  blocks: Map<string, OpenBlock>;
  /** Messages produced by the current `push`/`end` call. */
  pending: SSEMessage[];
};

/** Emits one Responses event: `event:` equal to `data.type`, `sequence_number` counting from 0. */
export function emit(state: EncoderState, type: string, payload: JSONObject): void {
  const data = JSON.stringify({ type, sequence_number: state.sequenceNumber, ...payload });
  state.sequenceNumber += 1;
  state.pending.push({ event: type, data });
}

/**
 * Emits the terminal event (`response.completed` and the like) with the object its data is the
 * serialisation of (`parsed`), so the gateway can keep the response for the next turn without
 * parsing the frame it just wrote.
 */
export function emitTerminal(state: EncoderState, type: string, payload: JSONObject): void {
  const parsed = { type, sequence_number: state.sequenceNumber, ...payload };
  state.sequenceNumber += 1;
  state.pending.push({ event: type, data: JSON.stringify(parsed), parsed });
}
