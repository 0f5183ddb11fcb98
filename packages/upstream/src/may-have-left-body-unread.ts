import { getDefaultHighWaterMark } from 'node:stream';

/** What a socket takes in one write without making the writer wait: Node's default high-water mark. */
const SOCKET_WRITE_BYTES = getDefaultHighWaterMark(false);

/**
 * Whether an answer may have left part of its request's body unread on the connection, which then
 * must not carry another request: written behind that rest, the next one would wait for an answer
 * that never comes, or fail with a reset once the upstream closes the connection. An upstream can
 * refuse a body without reading all of it (413 at its size limit, a refusal decided from the
 * headers), and no client can tell how much it read: the kernels of both ends buffer megabytes the
 * writer counts as sent. A successful answer was made from the whole body, and a body no larger than
 * one socket write arrives with its headers, so only an error answer to a larger body is in doubt.
 * `body.length` counts characters, never more than its UTF-8 bytes.
 */
export function mayHaveLeftBodyUnread(status: number, body: string): boolean {
  return status >= 400 && body.length > SOCKET_WRITE_BYTES;
}
