import { unfinishedAnswerError, type StreamEvent } from '@signalbox/core';

/**
 * A translated stream's decoded events with an end the upstream left unfinished replaced by its
 * failure (`unfinishedAnswerError`): never a finished answer in the client's protocol. In place,
 * since the decoder's array is fresh; a plain loop, since this runs for every frame.
 */
export function refuseUnfinishedEnd(events: StreamEvent[]): StreamEvent[] {
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (event.type !== 'response-end') continue;
    const error = unfinishedAnswerError(event.finishReason);
    if (error) events[index] = { type: 'error', error };
  }
  return events;
}
