import {
  createId,
  createUpstreamError,
  emptyUsage,
  GatewayError,
  streamEndedEarly,
  type EncodeContext,
  type SSEMessage,
  type StreamDecoder,
  type StreamEncoder,
  type StreamEvent,
} from '@signalbox/core';
import type { z } from 'zod';
import { decodeToyFinish, encodeToyFinish } from './toy-finish';
import { toyDoneSchema, toyFailureSchema, toyTokenSchema } from './toy-wire';

/** One failure frame: the toy envelope without a request id (the stream's headers carry it). */
export function toyFailureFrame(error: GatewayError): SSEMessage {
  return { event: 'failure', data: JSON.stringify({ failure: { code: error.code, message: error.message } }) };
}

/**
 * IR events as toy frames: `event: token` per text delta, then `event: done` with the finish word,
 * or `event: failure` for an error. Nothing after the terminal frame; a stream that ends without one
 * ends in a failure frame, so a cut answer never reads as done.
 */
export function createToyStreamEncoder(_context: EncodeContext): StreamEncoder {
  let finished = false;
  const finish = (frame: SSEMessage): SSEMessage[] => {
    finished = true;
    return [frame];
  };
  return {
    push(event) {
      if (finished) return [];
      if (event.type === 'text-delta') return [{ event: 'token', data: JSON.stringify({ text: event.delta }) }];
      if (event.type === 'response-end') return finish({ event: 'done', data: JSON.stringify({ finish: encodeToyFinish(event.finishReason) }) });
      if (event.type === 'error') return finish(toyFailureFrame(event.error));
      return [];
    },
    end: () => (finished ? [] : finish(toyFailureFrame(streamEndedEarly()))),
  };
}

/**
 * A toy upstream's frames as IR events: the response and its one text block open at the first
 * frame; `done` closes them; `failure` (or a frame that does not parse) is the upstream's error; a
 * body that ends before `done` is reported as cut short.
 */
export function createToyStreamDecoder(): StreamDecoder {
  let started = false;
  let finished = false;
  const textId = 'text-0';
  const opening = (): StreamEvent[] => {
    if (started) return [];
    started = true;
    return [
      { type: 'response-start', id: createId('toy_'), model: '' },
      { type: 'text-start', id: textId },
    ];
  };
  const fail = (error: GatewayError): StreamEvent[] => {
    finished = true;
    return [{ type: 'error', error }];
  };
  return {
    push(message) {
      if (finished) return [];
      if (message.event === 'token') {
        const token = parseFrame(toyTokenSchema, message.data);
        if (!token) return fail(malformed('token'));
        return [...opening(), { type: 'text-delta', id: textId, delta: token.text }];
      }
      if (message.event === 'done') {
        const done = parseFrame(toyDoneSchema, message.data);
        if (!done) return fail(malformed('done'));
        finished = true;
        return [...opening(), { type: 'text-end', id: textId }, { type: 'response-end', finishReason: decodeToyFinish(done.finish), usage: emptyUsage() }];
      }
      if (message.event === 'failure') {
        const failure = parseFrame(toyFailureSchema, message.data);
        return fail(failure ? createUpstreamError({ code: failure.failure.code, message: failure.failure.message }) : malformed('failure'));
      }
      return [];
    },
    end: () => (finished ? [] : fail(streamEndedEarly())),
  };
}

function parseFrame<Schema extends z.ZodType>(schema: Schema, data: string): z.output<Schema> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function malformed(event: string): GatewayError {
  return new GatewayError({ code: 'UPSTREAM_FAILED', message: `The toy upstream sent a malformed ${event} frame.` });
}
