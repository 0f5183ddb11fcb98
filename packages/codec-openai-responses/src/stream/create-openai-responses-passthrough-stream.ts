import { encodeOpenAIErrorObject } from '@signalbox/codec-openai-shared';
import { isJSONObject, spliceJSONString, type GatewayError, type PassthroughStream, type SSEMessage } from '@signalbox/core';

const SEQUENCE_NUMBER = /"sequence_number":\s*(\d+)/;

/**
 * A Responses stream forwarded as is; the lifecycle events carry the model in `response`, which
 * becomes the client's. A frame that is not JSON is forwarded unchanged: the stream decoder watching
 * the same frames reports it as an `UPSTREAM_FAILED` error. A failure is an `error` event carrying
 * both shapes clients read (the documented flat `code`/`message`/`param`, and the nested `error`
 * object OpenAI streams have been seen sending), continuing the upstream's `sequence_number`s.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export function createOpenAIResponsesPassthroughStream(clientModel: string): PassthroughStream {
  return new OpenAIResponsesPassthroughStream(clientModel);
}

/** One object per stream, its methods shared by all. */
class OpenAIResponsesPassthroughStream implements PassthroughStream {
  private readonly modelLiteral: string;
  private lastSequenceNumber = -1;

  constructor(private readonly clientModel: string) {
    this.modelLiteral = JSON.stringify(clientModel);
  }

  forward(message: SSEMessage): SSEMessage {
    const sequence = SEQUENCE_NUMBER.exec(message.data);
    if (sequence) this.lastSequenceNumber = Number(sequence[1]);
    if (!message.data.includes('"response"')) return message;
    // The model is spliced into the frame's text, the rest kept byte for byte; a response without
    // a string model still gets the client's, as the parsed frame allows.
    const spliced = spliceJSONString(message.data, MODEL_PATH, this.modelLiteral);
    if (spliced !== undefined) return { ...message, data: spliced };
    const data = parseJSONOrUndefined(message.data);
    if (!isJSONObject(data) || !isJSONObject(data.response)) return message;
    data.response.model = this.clientModel;
    return { ...message, data: JSON.stringify(data) };
  }

  fail(error: GatewayError): SSEMessage[] {
    const object = encodeOpenAIErrorObject(error);
    const flat = { code: object.code, message: object.message, param: object.param };
    const data = { type: 'error', sequence_number: this.lastSequenceNumber + 1, ...flat, error: object };
    return [{ event: 'error', data: JSON.stringify(data) }];
  }
}

const MODEL_PATH = ['response', 'model'];

/** The frame's JSON, or `undefined` when the upstream sent something else. */
function parseJSONOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
