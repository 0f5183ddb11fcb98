import type { Compaction, CompactionCodec, GenerationRequest } from '@signalbox/core';
import { formatSSEFrame } from '@signalbox/sse';
import type { FrameFormat } from '../../generation/frame-format';
import type { GenerationOutput } from '../../generation/generation-output';

/**
 * The answer to a generation whose input ended with a compaction trigger, as the client asked for
 * it: one JSON body, or the protocol's events for the compaction item, written at once (the summary
 * is complete before the first byte, and already settled).
 */
export function compactionTurnOutput(
  codec: CompactionCodec,
  compaction: Compaction,
  request: GenerationRequest,
  headers: Record<string, string>,
  formatFrame: FrameFormat = formatSSEFrame,
): GenerationOutput {
  if (!request.stream) return { kind: 'json', body: codec.encodeCompactionTurn(compaction, request), headers };
  const frames = codec.encodeCompactionTurnStream(compaction, request).map(formatFrame);
  return {
    kind: 'stream',
    headers,
    async pipe(sink) {
      let clientAborted = false;
      try {
        for (const frame of frames) if (!sink.write(frame)) await sink.drained();
      } catch {
        clientAborted = true;
      }
      return {
        upstreamId: undefined,
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: compaction.usage,
        error: undefined,
        outputCharacters: 0,
        clientAborted,
        interrupted: false,
      };
    },
  };
}
