import { GatewayError, type GatewayErrorCode, type SSEMessage, type StreamFramer } from '@signalbox/core';
import type { Message } from '@smithy/types';
import { createFrameReassembler, malformedFrame } from './create-frame-reassembler';
import type { EventStreamTools } from './load-event-stream-codec';

/**
 * Bedrock's `invoke-with-response-stream` answer (`application/vnd.amazon.eventstream` frames,
 * wherever the chunks cut them) as the Messages stream messages a Messages upstream sends: each
 * `chunk` event's `bytes` is the base64 of one Messages event's JSON, handed to the codec's decoder
 * as it is, to be parsed there once. An exception frame is thrown as the `GatewayError` of its type,
 * once the messages before it are returned.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html
 */
export function createBedrockStreamFramer(tools: EventStreamTools): StreamFramer {
  const reassembler = createFrameReassembler();
  let failure: GatewayError | undefined;
  const messagesOf = (frames: readonly Uint8Array[]): SSEMessage[] => {
    const messages: SSEMessage[] = [];
    for (const frame of frames) {
      const message = decodeFrame(tools, frame);
      const messageType = headerText(message, ':message-type');
      if (messageType === 'exception' || messageType === 'error') {
        failure = exceptionError(message);
        break;
      }
      if (headerText(message, ':event-type') === 'chunk') messages.push(messageOf(message.body));
    }
    // An exception with nothing before it fails at once; otherwise at the next chunk or the end.
    if (failure !== undefined && messages.length === 0) throw failure;
    return messages;
  };
  return {
    push(chunk) {
      if (failure !== undefined) throw failure;
      return messagesOf(reassembler.push(chunk));
    },
    end() {
      if (failure !== undefined) throw failure;
      reassembler.end();
      return [];
    },
  };
}

/** One whole frame; a bad prelude or checksum is the upstream's fault. */
function decodeFrame(tools: EventStreamTools, frame: Uint8Array): Message {
  try {
    return tools.decode(frame);
  } catch (error) {
    throw malformedFrame(error);
  }
}

/** A Messages event's JSON as Anthropic writes it, `type` first: read without a second parse of the event. */
const LEADING_TYPE = /^\{\s*"type"\s*:\s*"([a-z_]+)"/;

/**
 * One `chunk` event's payload (`{"bytes":"<base64 of a Messages event>"}`) as a stream message; the
 * event itself is parsed once, by the codec's stream decoder, unless its `type` is not first.
 */
function messageOf(payload: Uint8Array): SSEMessage {
  const bytes = parseJSON(textOf(payload))?.['bytes'];
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'base64').toString('utf8') : '';
  const type = LEADING_TYPE.exec(data)?.[1] ?? parseJSON(data)?.['type'];
  if (typeof type !== 'string') throw new GatewayError({ code: 'UPSTREAM_FAILED', message: 'Bedrock sent a stream chunk that is not a Messages event.' });
  return { event: type, data };
}

/** UTF-8 bytes as text, read in place. */
const textOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

function parseJSON(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function headerText(message: Message, name: string): string | undefined {
  const header = message.headers[name];
  return header?.type === 'string' ? header.value : undefined;
}

/** Bedrock's stream exceptions by `:exception-type`, as the gateway's codes. */
const EXCEPTION_CODES: Readonly<Record<string, GatewayErrorCode>> = {
  throttlingException: 'UPSTREAM_RATE_LIMITED',
  serviceUnavailableException: 'UPSTREAM_OVERLOADED',
  modelStreamErrorException: 'UPSTREAM_FAILED',
  internalServerException: 'UPSTREAM_FAILED',
  modelTimeoutException: 'UPSTREAM_TIMEOUT',
  validationException: 'UPSTREAM_INVALID_REQUEST',
  accessDeniedException: 'UPSTREAM_AUTH_FAILED',
};

/** An exception frame as a `GatewayError`: its type picks the code; its message (bounded) is kept. */
function exceptionError(message: Message): GatewayError {
  const type = headerText(message, ':exception-type') ?? headerText(message, ':error-code') ?? 'unknown';
  const said = parseJSON(textOf(message.body))?.['message'];
  const detail = typeof said === 'string' ? `: ${said.slice(0, 500)}` : '';
  return new GatewayError({ code: EXCEPTION_CODES[type] ?? 'UPSTREAM_FAILED', message: `Bedrock ended the stream with ${type.slice(0, 100)}${detail}` });
}
