import { encodeOpenAIErrorObject } from '@switchyard/codec-openai-shared';
import { isJSONObject, type PassthroughStream } from '@switchyard/core';

/** A Chat stream forwarded as is; every chunk carries the model, which becomes the client's. */
export function createOpenAIChatPassthroughStream(clientModel: string): PassthroughStream {
  return {
    forward(message) {
      if (message.data === '[DONE]' || !message.data.includes('"model"')) return message;
      const data: unknown = JSON.parse(message.data);
      if (!isJSONObject(data) || typeof data.model !== 'string') return message;
      data.model = clientModel;
      return { ...message, data: JSON.stringify(data) };
    },
    fail(error) {
      return [{ data: JSON.stringify({ error: encodeOpenAIErrorObject(error) }) }];
    },
  };
}
