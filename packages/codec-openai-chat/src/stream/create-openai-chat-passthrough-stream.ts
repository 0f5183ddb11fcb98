import { encodeOpenAIErrorObject } from '@signalbox/codec-openai-shared';
import { isJSONObject, spliceJSONString, type GatewayError, type PassthroughStream, type SSEMessage } from '@signalbox/core';

/**
 * A Chat stream forwarded chunk by chunk; every chunk carries the model, which becomes the client's:
 * spliced into the chunk's text, the rest kept byte for byte (the stream decoder watching the same
 * frames has parsed them already). A chunk that is not JSON is forwarded unchanged: that decoder
 * reports it as an `UPSTREAM_FAILED` error.
 */
export function createOpenAIChatPassthroughStream(clientModel: string): PassthroughStream {
  return new OpenAIChatPassthroughStream(clientModel);
}

/** One object per stream, its methods shared by all. */
class OpenAIChatPassthroughStream implements PassthroughStream {
  private readonly modelLiteral: string;

  constructor(private readonly clientModel: string) {
    this.modelLiteral = JSON.stringify(clientModel);
  }

  forward(message: SSEMessage): SSEMessage {
    if (message.data === '[DONE]' || !message.data.includes('"model"')) return message;
    const spliced = spliceJSONString(message.data, MODEL_PATH, this.modelLiteral);
    if (spliced !== undefined) return { ...message, data: spliced };
    // No string model where a chunk has it: as the parsed chunk says (a model under an escaped name).
    const data = parseJSONOrUndefined(message.data);
    if (!isJSONObject(data) || typeof data.model !== 'string') return message;
    data.model = this.clientModel;
    return { ...message, data: JSON.stringify(data) };
  }

  fail(error: GatewayError): SSEMessage[] {
    return [{ data: JSON.stringify({ error: encodeOpenAIErrorObject(error) }) }];
  }
}

const MODEL_PATH = ['model'];

/** The frame's JSON, or `undefined` when the upstream sent something else. */
function parseJSONOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
