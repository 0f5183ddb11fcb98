import type { SSEMessage } from '@signalbox/core';

const LINE_BREAK = /\r\n|\r|\n/;

/** One SSE frame, `\n\n`-terminated. Multi-line data becomes several `data:` lines. */
export function formatSSEFrame(message: SSEMessage): string {
  let frame = '';
  if (message.event !== undefined) frame += `event: ${assertSingleLine(message.event)}\n`;
  if (message.id !== undefined) frame += `id: ${assertSingleLine(message.id)}\n`;
  if (!LINE_BREAK.test(message.data)) return `${frame}data: ${message.data}\n\n`;
  for (const line of message.data.split(LINE_BREAK)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

/** An SSE comment frame; every SSE client ignores it, so it is a safe keep-alive for all protocols. */
export function formatSSEComment(text: string): string {
  return `: ${assertSingleLine(text)}\n\n`;
}

function assertSingleLine(value: string): string {
  if (LINE_BREAK.test(value)) throw new Error('An SSE event name, id or comment must not contain a line break');
  return value;
}
