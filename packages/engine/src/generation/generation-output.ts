import type { FinishReason, GenerationResponse, JSONObject, Usage } from '@signalbox/core';
import type { FrameSink } from './frame-sink';
import type { StreamOutcome } from './stream-observer';

/**
 * What the transport sends: one JSON body, or a committed stream to pipe into a sink, whose promise
 * resolves to how the stream ended (it never rejects). Response headers the engine wants set
 * (translation warnings) come with either.
 */
export type GenerationOutput =
  | { kind: 'json'; body: JSONObject; headers: Record<string, string> }
  | { kind: 'stream'; headers: Record<string, string>; pipe(sink: FrameSink): Promise<StreamOutcome> };

/** A target's answer for the client, with what billing needs to know about it. */
export type UpstreamAnswer =
  | {
      kind: 'json';
      body: JSONObject;
      headers: Record<string, string>;
      upstreamId: string | undefined;
      finishReason: FinishReason;
      usage: Usage;
      /** The upstream's answer in the IR (what the gateway reads when it uses an answer itself: a compaction's summary). */
      response: GenerationResponse;
    }
  | {
      kind: 'stream';
      headers: Record<string, string>;
      pipe(sink: FrameSink): Promise<StreamOutcome>;
      /** Lets the upstream stream go unread (its answer will never be sent). */
      abandon(): void;
    };
