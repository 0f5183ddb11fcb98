import { GatewayError, type GenerationResponse } from '@signalbox/core';

/** The summary a compaction's generation wrote: its text. One with none is the upstream's failure, not a compaction. */
export function summaryText(response: GenerationResponse): string {
  const text = response.content
    .flatMap(part => (part.type === 'text' ? [part.text] : []))
    .join('')
    .trim();
  if (text !== '') return text;
  throw new GatewayError({
    code: 'UPSTREAM_FAILED',
    message: "The route's model wrote no summary for the compaction (its answer had no text). Retry the compaction.",
  });
}
