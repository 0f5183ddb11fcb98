import { GatewayError } from '@signalbox/core';

/** The smallest event-stream frame (prelude, its checksum and the frame's checksum) and a bound on the largest. */
const MINIMUM_FRAME_BYTES = 16;
const MAXIMUM_FRAME_BYTES = 16 * 1024 * 1024;

/** Whole event-stream frames out of a body's chunks, wherever the chunks cut them. */
export type FrameReassembler = {
  /** The frames this chunk completes, in order: views of the chunk where a frame lies whole in it. */
  push(chunk: Uint8Array): Uint8Array[];
  /** The body ended: throws if it ended inside a frame. */
  end(): void;
};

/** A frame's total length: the big-endian 32-bit number its prelude starts with. */
function frameLength(bytes: Uint8Array, offset: number): number {
  const length = ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
  if (length < MINIMUM_FRAME_BYTES || length > MAXIMUM_FRAME_BYTES) throw malformedFrame();
  return length;
}

export const malformedFrame = (cause?: unknown) =>
  new GatewayError({ code: 'UPSTREAM_FAILED', message: 'Bedrock sent a malformed event-stream frame.', cause });

/**
 * Reassembles length-prefixed event-stream frames. A frame whole in its chunk is handed on as a view
 * of it, with no copy; only a frame cut across chunks is copied, once, into a buffer of its length.
 * @see https://docs.aws.amazon.com/transcribe/latest/dg/event-stream.html
 */
export function createFrameReassembler(): FrameReassembler {
  // The frame being filled across chunks, and how much of it came; the first bytes of its prelude
  // while fewer than the four that give its length have.
  let partial: Uint8Array | undefined;
  let filled = 0;
  const prelude = new Uint8Array(4);
  let preludeFilled = 0;

  /** Copies from the chunk into the cut frame; the bytes taken. */
  const fill = (chunk: Uint8Array, offset: number): number => {
    const taken = Math.min(partial!.length - filled, chunk.length - offset);
    partial!.set(chunk.subarray(offset, offset + taken), filled);
    filled += taken;
    return taken;
  };
  /** Copies the start of a prelude; once its length is known, the cut frame's buffer is made. */
  const fillPrelude = (chunk: Uint8Array, offset: number): number => {
    const taken = Math.min(4 - preludeFilled, chunk.length - offset);
    prelude.set(chunk.subarray(offset, offset + taken), preludeFilled);
    preludeFilled += taken;
    if (preludeFilled === 4) {
      partial = new Uint8Array(frameLength(prelude, 0));
      partial.set(prelude);
      filled = 4;
      preludeFilled = 0;
    }
    return taken;
  };

  return {
    push(chunk) {
      const frames: Uint8Array[] = [];
      let offset = 0;
      while (offset < chunk.length) {
        if (partial !== undefined) {
          offset += fill(chunk, offset);
          if (filled < partial.length) break;
          frames.push(partial);
          partial = undefined;
        } else if (preludeFilled > 0 || chunk.length - offset < 4) {
          offset += fillPrelude(chunk, offset);
        } else {
          const length = frameLength(chunk, offset);
          if (chunk.length - offset >= length) frames.push(chunk.subarray(offset, offset + length));
          else {
            partial = new Uint8Array(length);
            filled = 0;
            fill(chunk, offset);
          }
          offset += Math.min(length, chunk.length - offset);
        }
      }
      return frames;
    },
    end() {
      if (partial !== undefined || preludeFilled > 0) throw malformedFrame();
    },
  };
}
