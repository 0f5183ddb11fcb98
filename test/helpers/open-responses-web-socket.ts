import type { SSEMessage } from '@signalbox/core';
import WebSocket from 'ws';

/** One frame as received: its text and its parsed JSON (tests only: the gateway parses nothing twice). */
export type ReceivedFrame = { text: string; event: { type: string; [key: string]: unknown } };

export type ResponsesWebSocket = {
  socket: WebSocket;
  send(event: Record<string, unknown>): void;
  /** The frames up to and including the next terminal event or error frame. */
  nextResponse(): Promise<ReceivedFrame[]>;
  /** Resolves with the close code and reason once the gateway closes the connection. */
  closed: Promise<{ code: number; reason: string }>;
  /** Every frame received so far. */
  frames: ReceivedFrame[];
  /** Resolves once a frame of `type` arrived (at once if one did). */
  frameOf(type: string): Promise<ReceivedFrame>;
};

const TERMINAL_TYPES = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

/** A raw `ws` client of the gateway's Responses WebSocket mode on 127.0.0.1, with the key as `Authorization: Bearer`. */
export async function openResponsesWebSocket(baseURL: string, key: string, path = '/v1/responses'): Promise<ResponsesWebSocket> {
  const socket = new WebSocket(`${baseURL.replace(/^http/, 'ws')}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const frames: ReceivedFrame[] = [];
  let waiting: { from: number; resolve(frames: ReceivedFrame[]): void } | undefined;
  let consumed = 0;
  const check = () => {
    if (!waiting) return;
    const end = frames.findIndex((frame, index) => index >= waiting!.from && TERMINAL_TYPES.has(frame.event.type));
    if (end === -1) return;
    const { resolve, from } = waiting;
    waiting = undefined;
    consumed = end + 1;
    resolve(frames.slice(from, end + 1));
  };
  const typeWaiters: { type: string; resolve(frame: ReceivedFrame): void }[] = [];
  socket.on('message', data => {
    const text = data.toString();
    const frame = { text, event: JSON.parse(text) };
    frames.push(frame);
    for (const waiter of typeWaiters.splice(0)) {
      if (waiter.type === frame.event.type) waiter.resolve(frame);
      else typeWaiters.push(waiter);
    }
    check();
  });
  const closed = new Promise<{ code: number; reason: string }>(resolve => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    send: event => socket.send(JSON.stringify(event)),
    frameOf(type) {
      const seen = frames.find(frame => frame.event.type === type);
      return seen ? Promise.resolve(seen) : new Promise(resolve => typeWaiters.push({ type, resolve }));
    },
    nextResponse() {
      return new Promise(resolve => {
        waiting = { from: consumed, resolve };
        check();
      });
    },
  };
}

/** The frames as the SSE messages the stream validators read (each frame's type as the event name). */
export function framesAsMessages(frames: readonly ReceivedFrame[]): SSEMessage[] {
  return frames.map(frame => ({ event: frame.event.type, data: frame.text }));
}
