import type { CacheControl, JSONObject } from '@signalbox/core';

/** A validated `cache_control` as a client may send it (`null` or absent: none). */
type WireCacheControl = { type: 'ephemeral'; ttl?: '5m' | '1h' | undefined } | null | undefined;

/** Gives an IR part (or tool) the client block's `cache_control`, when it has one; returns the part. */
export function withDecodedCacheControl<Part extends { cacheControl?: CacheControl }>(
  part: Part,
  wire: WireCacheControl,
): Part {
  if (wire) part.cacheControl = wire.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: wire.ttl };
  return part;
}

/** Gives an upstream block the IR part's breakpoint as `cache_control`, when it has one; returns the block. */
export function withEncodedCacheControl(block: JSONObject, part: { cacheControl?: CacheControl }): JSONObject {
  const cacheControl = part.cacheControl;
  if (cacheControl !== undefined) {
    block.cache_control = cacheControl.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: cacheControl.ttl };
  }
  return block;
}
