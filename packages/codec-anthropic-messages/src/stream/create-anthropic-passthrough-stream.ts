import { isJSONObject, spliceJSONString, type GatewayError, type PassthroughStream, type SSEMessage } from '@signalbox/core';
import { mapAnthropicStreamErrorType } from '../error/anthropic-error-envelope';

/**
 * A Messages stream forwarded as is; only `message_start` carries the model, which becomes the
 * client's: spliced into the frame's text, the rest kept byte for byte. A frame that is not JSON is
 * returned unchanged, never a crash: the stream decoder watching the same frames reports it as an
 * `UPSTREAM_FAILED` error (whatever its event name), and the pipeline sends the failure in its place.
 */
export function createAnthropicPassthroughStream(clientModel: string): PassthroughStream {
  return new AnthropicPassthroughStream(clientModel);
}

/** One object per stream, its methods shared by all. */
class AnthropicPassthroughStream implements PassthroughStream {
  private readonly modelLiteral: string;

  constructor(private readonly clientModel: string) {
    this.modelLiteral = JSON.stringify(clientModel);
  }

  forward(message: SSEMessage): SSEMessage {
    if (message.event !== 'message_start') return message;
    const spliced = spliceJSONString(message.data, MODEL_PATH, this.modelLiteral);
    if (spliced !== undefined) return { ...message, data: spliced };
    // A message without a string model still gets the client's, as the parsed frame allows.
    const data = parseJSONOrUndefined(message.data);
    if (!isJSONObject(data) || !isJSONObject(data.message)) return message;
    data.message.model = this.clientModel;
    return { ...message, data: JSON.stringify(data) };
  }

  fail(error: GatewayError): SSEMessage[] {
    const data = {
      type: 'error',
      error: { type: mapAnthropicStreamErrorType(error), message: error.message },
    };
    return [{ event: 'error', data: JSON.stringify(data) }];
  }
}

const MODEL_PATH = ['message', 'model'];

/** The frame's JSON, or `undefined` when the upstream sent something else. */
function parseJSONOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
