import type { Message } from '@smithy/types';
import { loadOnce } from './load-once';

/** What decoding Bedrock's event-stream answers needs: the decoder of one whole frame. */
export type EventStreamTools = {
  decode(frame: Uint8Array): Message;
};

/** `@smithy/core`'s event-stream codec, loaded when a Bedrock upstream opens: several MiB a gateway without one never holds. */
export const loadEventStreamCodec = loadOnce(async (): Promise<EventStreamTools> => {
  const [{ EventStreamCodec }, { fromUtf8, toUtf8 }] = await Promise.all([import('@smithy/core/event-streams'), import('@smithy/util-utf8')]);
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  return { decode: frame => codec.decode(frame) };
});
