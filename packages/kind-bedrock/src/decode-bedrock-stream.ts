import { GatewayError, type GatewayErrorCode } from '@signalbox/core';
import { EventStreamCodec, getChunkedStream, type Message } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
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
  for await (const frame of getChunkedStream(body)) {
    const message = codec.decode(frame);
    const messageType = headerText(message, ':message-type');
    if (messageType === 'exception' || messageType === 'error') throw exceptionError(message);
    if (headerText(message, ':event-type') !== 'chunk') continue;
    yield sseOf(message.body);
  }
}

/** One `chunk` event's payload (`{"bytes":"<base64 of a Messages event>"}`) as an SSE message. */
function sseOf(payload: Uint8Array): Uint8Array {
  const { bytes } = JSON.parse(decoder.decode(payload)) as { bytes?: unknown };
  if (typeof bytes !== 'string') throw new GatewayError({ code: 'UPSTREAM_FAILED', message: 'Bedrock sent a stream chunk without bytes.' });
  const data = Buffer.from(bytes, 'base64').toString('utf8');
  const { type } = JSON.parse(data) as { type?: unknown };
  if (typeof type !== 'string') throw new GatewayError({ code: 'UPSTREAM_FAILED', message: 'Bedrock sent a stream chunk that is not a Messages event.' });
  return encoder.encode(`event: ${type}\ndata: ${data}\n\n`);
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
  let detail = '';
  try {
    const parsed = JSON.parse(decoder.decode(message.body)) as { message?: unknown };
    if (typeof parsed.message === 'string') detail = `: ${parsed.message.slice(0, 500)}`;
  } catch {
    // A body that is not JSON leaves the type alone to speak.
  }
  return new GatewayError({ code: EXCEPTION_CODES[type] ?? 'UPSTREAM_FAILED', message: `Bedrock ended the stream with ${type.slice(0, 100)}${detail}` });
}
