import { quoteClientName } from '@signalbox/core';

/** A media type's `type/subtype` (RFC 6838 §4.2 names), without its parameters. */
const MEDIA_TYPE_NAME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/**
 * A client's media type as a refusal names it: quoted when it is a `type/subtype` name (so
 * `'image/heic'` is shown), described when it is any other text, which the refusal then never
 * repeats in the answer or the log.
 */
export function quoteMediaType(mediaType: string): string {
  return quoteClientName(mediaType.split(';', 1)[0]!.trim(), '(not a type/subtype name)', MEDIA_TYPE_NAME);
}
