/** One parsed Server-Sent Event: its `event:` name (if any) and its `data:` text. */
export type ParsedSSEEvent = { event: string | undefined; data: string };

/**
 * Test helper: splits a complete SSE body into events the way the SDKs do (blank line ends an
 * event, comments ignored, data lines joined with `\n`).
 */
export function parseSSEText(text: string): ParsedSSEEvent[] {
  const events: ParsedSSEEvent[] = [];
  for (const block of text.split(/\r\n\r\n|\n\n|\r\r/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      if (field === 'data') data.push(value);
    }
    if (event !== undefined || data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

/** Test helper: the JSON payloads of a stream's events (Chat's `[DONE]` is skipped). */
export function parseSSEJson(text: string): Array<Record<string, unknown>> {
  return parseSSEText(text)
    .filter(event => event.data !== '[DONE]')
    .map(event => JSON.parse(event.data) as Record<string, unknown>);
}
