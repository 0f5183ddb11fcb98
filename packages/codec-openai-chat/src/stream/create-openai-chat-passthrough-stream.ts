import { encodeOpenAIErrorObject } from '@switchyard/codec-openai-shared';
import { isJSONObject, type PassthroughStream } from '@switchyard/core';

/**
 * A Chat stream forwarded chunk by chunk; every chunk carries the model, which becomes the client's
 * (so those chunks are re-serialised). A chunk that is not JSON is forwarded unchanged: the stream
 * decoder watching the same frames reports it as an `UPSTREAM_FAILED` error.
 */
export function createOpenAIChatPassthroughStream(clientModel: string): PassthroughStream {
  return {
    forward(message) {
      if (message.data === '[DONE]' || !message.data.includes('"model"')) return message;
      const data = parseJSONOrUndefined(message.data);
      if (!isJSONObject(data) || typeof data.model !== 'string') return message;
      data.model = clientModel;
      return { ...message, data: JSON.stringify(data) };
    },
    fail(error) {
      return [{ data: JSON.stringify({ error: encodeOpenAIErrorObject(error) }) }];
    },
  };
}

/** The frame's JSON, or `undefined` when the upstream sent something else. */
function parseJSONOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
