import { GatewayError, type GatewayErrorCode } from '@signalbox/core';
import type { Message } from '@smithy/types';
import { loadEventStreamCodec, type EventStreamTools } from './load-event-stream-codec';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Bedrock's `invoke-with-response-stream` answer (`application/vnd.amazon.eventstream` frames,
 * wherever the TCP chunks cut them) as the Messages SSE a Messages upstream sends: each `chunk`
 * event's `bytes` is the base64 of one Messages event's JSON. An exception frame is thrown as the
 * `GatewayError` of its type.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html
 */
export async function* decodeBedrockStream(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const tools = await loadEventStreamCodec();
  try {
    for await (const frame of tools.frames(body)) {
      const message = decodeFrame(tools, frame);
      const messageType = headerText(message, ':message-type');
      if (messageType === 'exception' || messageType === 'error') throw exceptionError(message);
      if (headerText(message, ':event-type') !== 'chunk') continue;
      yield sseOf(message.body);
    }
  } catch (error) {
    // The reassembler's own complaint: the answer ended inside a frame.
    if (error instanceof Error && error.message.startsWith('Truncated event message')) throw malformed(error);
    throw error;
  }
}

/** One whole frame; a bad prelude or checksum is the upstream's fault. */
function decodeFrame(tools: EventStreamTools, frame: Uint8Array): Message {
  try {
    return tools.decode(frame);
  } catch (error) {
    throw malformed(error);
  }
}

const malformed = (cause: unknown) => new GatewayError({ code: 'UPSTREAM_FAILED', message: 'Bedrock sent a malformed event-stream frame.', cause });

/** A Messages event's JSON as Anthropic writes it, `type` first: read without a second parse of the event. */
const LEADING_TYPE = /^\{\s*"type"\s*:\s*"([a-z_]+)"/;

/**
 * One `chunk` event's payload (`{"bytes":"<base64 of a Messages event>"}`) as an SSE message; the
 * event itself is parsed once, by the codec's stream decoder, unless its `type` is not first.
 */
function sseOf(payload: Uint8Array): Uint8Array {
  const data = Buffer.from(String(parseJSON(decoder.decode(payload))?.['bytes'] ?? ''), 'base64').toString('utf8');
  const type = LEADING_TYPE.exec(data)?.[1] ?? parseJSON(data)?.['type'];
  if (typeof type !== 'string') throw new GatewayError({ code: 'UPSTREAM_FAILED', message: 'Bedrock sent a stream chunk that is not a Messages event.' });
  return encoder.encode(`event: ${type}\ndata: ${data}\n\n`);
}

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
  const said = parseJSON(decoder.decode(message.body))?.['message'];
  const detail = typeof said === 'string' ? `: ${said.slice(0, 500)}` : '';
  return new GatewayError({ code: EXCEPTION_CODES[type] ?? 'UPSTREAM_FAILED', message: `Bedrock ended the stream with ${type.slice(0, 100)}${detail}` });
}
