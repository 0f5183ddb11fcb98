import { invalidParameter } from '@signalbox/core';

/** Where a newest-first page of the ledger stopped: the last row's time and request id. */
export type UsagePosition = { time: number; requestId: string };

/**
 * The opaque cursor of a ledger page: the position of its last row, base64url-encoded so callers
 * pass it back unchanged and never build one. Paging on (time, request id) rather than an offset
 * keeps every page as fast as the first and neither skips nor repeats a row when new rows arrive.
 */
export function encodeUsageCursor(position: UsagePosition): string {
  return Buffer.from(JSON.stringify([position.time, position.requestId])).toString('base64url');
}

/** The position in `cursor`; a 400 `INVALID_REQUEST` naming `cursor` when it is not one we made. */
export function decodeUsageCursor(cursor: string): UsagePosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    !Number.isSafeInteger(decoded[0]) ||
    typeof decoded[1] !== 'string'
  ) {
    throw invalidParameter('cursor', 'not a cursor returned by a previous page');
  }
  return { time: decoded[0] as number, requestId: decoded[1] };
}

/** The opaque cursor of a balance-event page: the sequence number of its last event. */
export function encodeSequenceCursor(sequence: number): string {
  return Buffer.from(String(sequence)).toString('base64url');
}

/** The sequence number in a balance-event cursor; a 400 `INVALID_REQUEST` naming `cursor` otherwise. */
export function decodeSequenceCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const sequence = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(sequence)) throw invalidParameter('cursor', 'not a cursor returned by a previous page');
  return sequence;
}
