import type { SSEMessage, StreamFraming } from '@signalbox/core';

/**
 * The framing of a stream asked for without `alt=sse`: one JSON array, written as it grows
 * (`[{…}`, then `,\r\n{…}` per chunk, then `]`), as Google's API writes it. The encoder's `close`
 * message ends the array; one framing per stream.
 */
export function createJSONArrayFraming(): StreamFraming {
  let opened = false;
  return {
    contentType: 'application/json; charset=UTF-8',
    format(message: SSEMessage): string {
      if (message.event === 'close') return opened ? ']' : '[]';
      const prefix = opened ? ',\r\n' : '[';
      opened = true;
      return `${prefix}${message.data}`;
    },
  };
}
