import type { JSONObject } from './json';

/** One Server-Sent Event after framing, before its data is parsed; a `comment` frame has no event. */
export type SSEMessage = {
  event?: string | undefined;
  data: string;
  id?: string | undefined;
  /**
   * Set only on a frame the gateway encoded itself, when a watcher needs its content (a stream's
   * terminal response, kept for the client's next turn): the object `data` is the serialisation
   * of, so that nothing parses `data` again. Never written to the wire; never to be changed.
   */
  parsed?: JSONObject | undefined;
};
