import type { StreamDecoder } from '../codec/codec';
import type { SSEMessage } from '../sse-message';
import { comparableEvents, type ComparableEvent } from './comparable-events';

/**
 * Runs messages through a decoder, then `end()`, as the transport does with one upstream body; the
 * events come back with errors made comparable. Pass a fresh decoder: its state carries over.
 */
export function decodeStreamMessages(
  decoder: StreamDecoder,
  messages: readonly SSEMessage[],
): ComparableEvent[] {
  const events = [...messages.flatMap(message => decoder.push(message)), ...decoder.end()];
  return comparableEvents(events);
}
