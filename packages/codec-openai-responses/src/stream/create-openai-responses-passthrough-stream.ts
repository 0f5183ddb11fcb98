import { encodeOpenAIErrorObject } from '@switchyard/codec-openai-shared';
import { isJSONObject, type PassthroughStream } from '@switchyard/core';

const SEQUENCE_NUMBER = /"sequence_number":\s*(\d+)/;

/**
 * A Responses stream forwarded as is; the lifecycle events carry the model in `response`, which
 * becomes the client's. A failure is an `error` event in both shapes (protocols.md §4.7) that
 * continues the upstream's `sequence_number`s.
 */
export function createOpenAIResponsesPassthroughStream(clientModel: string): PassthroughStream {
  let lastSequenceNumber = -1;
  return {
    forward(message) {
      const sequence = SEQUENCE_NUMBER.exec(message.data);
      if (sequence) lastSequenceNumber = Number(sequence[1]);
      if (!message.data.includes('"response"')) return message;
      const data: unknown = JSON.parse(message.data);
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
