import type { JSONObject } from '@switchyard/core';
import type { FrameSink } from './frame-sink';

/**
 * What the transport sends: one JSON body, or a committed stream to pipe into a sink. Response
 * headers the engine wants set (translation warnings) come with either.
 */
export type GenerationOutput =
  | { kind: 'json'; body: JSONObject; headers: Record<string, string> }
  | { kind: 'stream'; headers: Record<string, string>; pipe(sink: FrameSink): Promise<void> };
