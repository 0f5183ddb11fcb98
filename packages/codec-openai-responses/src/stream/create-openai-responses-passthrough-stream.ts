import { encodeOpenAIErrorObject } from '@signalbox/codec-openai-shared';
import { isJSONObject, spliceJSONString, type PassthroughStream } from '@signalbox/core';

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
  const modelLiteral = JSON.stringify(clientModel);
  let lastSequenceNumber = -1;
  return {
    forward(message) {
      const sequence = SEQUENCE_NUMBER.exec(message.data);
      if (sequence) lastSequenceNumber = Number(sequence[1]);
      if (!message.data.includes('"response"')) return message;
      // The model is spliced into the frame's text, the rest kept byte for byte; a response without
      // a string model still gets the client's, as the parsed frame allows.
      const spliced = spliceJSONString(message.data, MODEL_PATH, modelLiteral);
      if (spliced !== undefined) return { ...message, data: spliced };
      const data = parseJSONOrUndefined(message.data);
      if (!isJSONObject(data) || !isJSONObject(data.response)) return message;
      data.response.model = clientModel;
      return { ...message, data: JSON.stringify(data) };
    },
    fail(error) {
      const object = encodeOpenAIErrorObject(error);
      const flat = { code: object.code, message: object.message, param: object.param };
      const data = { type: 'error', sequence_number: lastSequenceNumber + 1, ...flat, error: object };
      return [{ event: 'error', data: JSON.stringify(data) }];
    },
  };
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
